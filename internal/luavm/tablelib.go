package luavm

import (
	"sort"
	"strings"

	glua "github.com/yuin/gopher-lua"
)

// openTable replaces table.concat (size-capped), table.sort (stoppable),
// table.insert (which would fill the array part up to a far position) and
// table.maxn (which ignored keys outside the array part).
//
// table.pack and table.unpack are Lua 5.2's; models trained on newer Lua
// write them, and they cost nothing.
func (s *State) openTable(tbl *glua.LTable) {
	s.register(tbl, []namedFunction{
		{"concat", s.tableConcat},
		{"sort", s.tableSort},
		{"unpack", s.unpack},
		{"insert", s.tableInsert},
		{"maxn", tableMaxn},
		{"pack", func(L *glua.LState) int {
			n := L.GetTop()
			t := L.CreateTable(n, 1)
			for i := 1; i <= n; i++ {
				t.RawSetInt(i, L.Get(i))
			}
			t.RawSetString("n", glua.LNumber(n))
			L.Push(t)
			return 1
		}},
	})
}

// tableMaxn is Lua 5.1's table.maxn: the largest positive numeric key,
// whole or not (gopher-lua's reads only the array part).
func tableMaxn(L *glua.LState) int {
	t := L.CheckTable(1)
	most, seen := float64(t.MaxN()), 0
	t.ForEach(func(k, _ glua.LValue) {
		if seen++; seen%4096 == 0 {
			checkStop(L)
		}
		if n, ok := k.(glua.LNumber); ok && float64(n) > most {
			most = float64(n)
		}
	})
	L.Push(glua.LNumber(most))
	return 1
}

// tableInsert is table.insert with Lua 5.2's bound on the position:
// gopher-lua would fill every slot up to a far position in one step (a
// gigabyte for t[2^26 - 1]).
func (s *State) tableInsert(L *glua.LState) int {
	t := L.CheckTable(1)
	switch L.GetTop() {
	case 2:
		t.Append(L.Get(2))
		return 0
	case 3:
	default:
		L.RaiseError("wrong number of arguments to 'insert'")
	}
	n := t.Len()
	pos := intArg(L, 2, 0)
	if pos < 1 || pos > float64(n+1) {
		L.ArgError(2, "position out of bounds")
	}
	t.Insert(int(pos), L.Get(3))
	return 0
}

func (s *State) tableConcat(L *glua.LState) int {
	t := L.CheckTable(1)
	sep := L.OptString(2, "")
	i := L.OptInt(3, 1)
	j := L.OptInt(4, t.Len())
	var out strings.Builder
	for k := i; k <= j; k++ {
		v := t.RawGetInt(k)
		switch v.(type) {
		case glua.LString, glua.LNumber:
		default:
			L.RaiseError("invalid value (at index %d) in table for 'concat'", k)
		}
		str := asString(v)
		s.checkSize(L, out.Len()+len(str)+len(sep))
		out.WriteString(str)
		if k < j {
			out.WriteString(sep)
		}
		if k%4096 == 0 {
			checkStop(L)
		}
	}
	L.Push(glua.LString(out.String()))
	return 1
}

// luaSorter sorts a table's array part with Lua's "<" or a comparator,
// checking for the run's stop between comparisons.
type luaSorter struct {
	L      *glua.LState
	values []glua.LValue
	less   glua.LValue
	calls  int
}

func (ls *luaSorter) Len() int      { return len(ls.values) }
func (ls *luaSorter) Swap(i, j int) { ls.values[i], ls.values[j] = ls.values[j], ls.values[i] }
func (ls *luaSorter) Less(i, j int) bool {
	ls.calls++
	if ls.calls%1024 == 0 {
		checkStop(ls.L)
	}
	if ls.less == glua.LNil {
		return ls.L.LessThan(ls.values[i], ls.values[j])
	}
	ls.L.Push(ls.less)
	ls.L.Push(ls.values[i])
	ls.L.Push(ls.values[j])
	ls.L.Call(2, 1)
	res := glua.LVAsBool(ls.L.Get(-1))
	ls.L.Pop(1)
	return res
}

func (s *State) tableSort(L *glua.LState) int {
	t := L.CheckTable(1)
	less := L.Get(2)
	if less != glua.LNil {
		L.CheckFunction(2)
	}
	n := t.Len()
	sorter := &luaSorter{L: L, values: make([]glua.LValue, n), less: less}
	for i := range n {
		sorter.values[i] = t.RawGetInt(i + 1)
	}
	sort.Sort(sorter)
	for i, v := range sorter.values {
		t.RawSetInt(i+1, v)
	}
	return 0
}
