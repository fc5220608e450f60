package pool

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// randomServer is server's tools as a random version of it lists them:
// a few tools, now and then one with alwaysLoad, a reserved name or a name
// another server also uses.
func randomServer(r *rand.Rand, server string) []Tool {
	var tools []Tool
	for i := range 1 + r.IntN(5) {
		t := mcpTool(server, fmt.Sprint("t", i))
		t.Description += fmt.Sprint(" v", r.IntN(3))
		t.AlwaysLoad = r.IntN(10) == 0
		switch r.IntN(60) {
		case 0:
			t.Name = SearchName
		case 1:
			t.Name = "mcp__shared__name"
		case 2:
			t.Name = ""
		}
		tools = append(tools, t)
	}
	return tools
}

// step changes reg the way a host's registry changes: a server joins
// (anywhere), leaves, lists new tools, moves, or the builtins change; or
// nothing changes.
func step(r *rand.Rand, servers [][]Tool, builtins []Tool) ([][]Tool, []Tool) {
	switch op := r.IntN(12); {
	case op == 10:
		return servers, builtins
	case op == 11 && len(servers) > 1:
		servers = slices.Clone(servers)
		i, j := r.IntN(len(servers)), r.IntN(len(servers))
		servers[i], servers[j] = servers[j], servers[i]
		return servers, builtins
	case op < 3 || len(servers) == 0:
		at := r.IntN(len(servers) + 1)
		return slices.Insert(servers, at, randomServer(r, fmt.Sprint("s", r.IntN(12)))), builtins
	case op < 6:
		i := r.IntN(len(servers))
		return slices.Delete(slices.Clone(servers), i, i+1), builtins
	case op < 9 || op == 11:
		i := r.IntN(len(servers))
		servers = slices.Clone(servers)
		servers[i] = randomServer(r, servers[i][0].Server)
		return servers, builtins
	}
	builtins = slices.Clone(builtins)
	i := r.IntN(len(builtins))
	builtins[i].ShouldDefer = !builtins[i].ShouldDefer
	return servers, builtins
}

// Reassembling after random joins, leaves and changes answers every
// question as Assembling the same registry from scratch does, fails when
// it fails, and reports the pool's change truly.
func TestReassembleEqualsAssemble(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 24))
	compared, failed := 0, 0
	for seq := range 25 {
		deny := map[string]bool{"mcp__s3__t1": true, "Glob": seq%3 == 0, ExecName: seq%11 == 5}
		opts := &Options{
			Exempt:            coreNames,
			DisableExec:       seq%9 == 4,
			RemoteNonDeferred: []string{"WebFetch"},
			Denied:            func(name string) bool { return deny[name] },
		}
		servers, builtins := [][]Tool(nil), defaultBuiltins()
		cur := mustAssemble(t, builtins, opts)
		for n := range 60 {
			servers, builtins = step(r, servers, builtins)
			reg := slices.Concat(append([][]Tool{builtins}, servers...)...)
			want, wantErr := Assemble(reg, execDecl, opts)
			got, gotErr := cur.Reassemble(reg)
			if (wantErr == nil) != (gotErr == nil) {
				t.Fatalf("sequence %d, step %d: Assemble: %v; Reassemble: %v", seq, n, wantErr, gotErr)
			}
			if wantErr != nil {
				failed++
				continue
			}
			compared++
			if w, g := viewOf(want, reg), viewOf(got, reg); !reflect.DeepEqual(w, g) {
				t.Fatalf("sequence %d, step %d (-Assemble +Reassemble):\n%s", seq, n, cmp.Diff(w, g))
			}
			checkChange(t, cur, got)
			cur = got
		}
	}
	if compared < 500 || failed < 20 {
		t.Errorf("%d registries compared, %d refused: the sequences test too little", compared, failed)
	}
}

// checkChange checks that next's PoolChange turns prev's pool into next's.
func checkChange(t *testing.T, prev, next *Assembly) {
	t.Helper()
	if next == prev { // the same registry: no change
		return
	}
	ch, ok := next.PoolChange()
	if !ok {
		if prev.Exec == next.Exec {
			t.Fatalf("no change known with Exec %v both times", next.Exec)
		}
		return
	}
	pool := map[string]Tool{}
	for _, tool := range prev.Pool() {
		pool[tool.Name] = tool
	}
	for _, name := range ch.Left {
		delete(pool, name)
	}
	for _, tool := range ch.Joined {
		pool[tool.Name] = tool
	}
	want := map[string]Tool{}
	for _, tool := range next.Pool() {
		want[tool.Name] = tool
		if !slices.Contains(ch.Servers, groupKey(&tool)) {
			if old, inPool, _ := prev.Lookup(tool.Name); !inPool || !sameTool(&old, &tool) {
				t.Fatalf("%s changed but its server %q is not in %q", tool.Name, groupKey(&tool), ch.Servers)
			}
		}
	}
	if diff := cmp.Diff(want, pool); diff != "" {
		t.Fatalf("the pool before with the change applied (-want +got):\n%s", diff)
	}
	for _, key := range ch.Servers {
		wantOf := slices.DeleteFunc(slices.Clone(next.Pool()), func(t Tool) bool { return groupKey(&t) != key })
		if diff := cmp.Diff(wantOf, next.PoolOf(key), cmp.Comparer(func(a, b []Tool) bool { return len(a) == 0 && len(b) == 0 || reflect.DeepEqual(a, b) })); diff != "" {
			t.Fatalf("PoolOf(%q) (-want +got):\n%s", key, diff)
		}
	}
}

// The same registry again is no change: Reassemble returns the assembly
// it was given. A server joining the pool keeps tools[] as it was.
func TestReassembleUnchanged(t *testing.T) {
	reg := append(defaultBuiltins(), mcpTool("a", "x"), mcpTool("b", "y"))
	a := mustAssemble(t, reg, nil)
	b, err := a.Reassemble(slices.Clone(reg))
	if err != nil {
		t.Fatal(err)
	}
	if b != a {
		t.Error("an unchanged registry was assembled again")
	}
	c, err := b.Reassemble(append(slices.Clone(reg), mcpTool("c", "z")))
	if err != nil {
		t.Fatal(err)
	}
	if &c.Tools[0] != &a.Tools[0] || &c.Flat[0] != &a.Flat[0] {
		t.Error("a server joining the pool declared tools[] again")
	}
}

// sameTool compares every field of Tool: a field added to Tool and left
// out of sameTool would let Reassemble keep a tool that changed.
func TestSameToolSeesEveryField(t *testing.T) {
	base := mcpTool("s", "t")
	yes := true
	typ := reflect.TypeOf(base)
	for i := range typ.NumField() {
		changed := base
		f := reflect.ValueOf(&changed).Elem().Field(i)
		switch f.Kind() {
		case reflect.String:
			f.SetString(f.String() + "x")
		case reflect.Slice:
			f.Set(reflect.ValueOf(json.RawMessage(`{"x":1}`)))
		case reflect.Bool:
			f.SetBool(!f.Bool())
		case reflect.Int:
			f.SetInt(f.Int() + 1)
		case reflect.Struct: // Annotations
			for j := range f.NumField() {
				changedA := changed
				g := reflect.ValueOf(&changedA).Elem().Field(i).Field(j)
				if g.Kind() == reflect.String {
					g.SetString("x")
				} else {
					g.Set(reflect.ValueOf(&yes))
				}
				if sameTool(&base, &changedA) {
					t.Errorf("sameTool misses Annotations.%s", typ.Field(i).Type.Field(j).Name)
				}
			}
			continue
		default:
			t.Fatalf("field %s of kind %v: teach this test and sameTool", typ.Field(i).Name, f.Kind())
		}
		if sameTool(&base, &changed) {
			t.Errorf("sameTool misses %s", typ.Field(i).Name)
		}
	}
}
