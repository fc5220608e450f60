package luavm

import (
	"fmt"
	gomath "math"
	"strconv"
	"strings"
	"unsafe"

	glua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/ast"
)

// farIndex is how far past the end of a table's array part an integer key
// may be set. gopher-lua keeps every integer key below its MaxArrayIndex
// (2^26 unless a worker lowers it) in the array part and fills every slot
// before it in one uninterruptible step: t[2^25] = v allocated gigabytes.
// One step may fill at most farIndex slots (16 MiB); a sparse fill that
// goes on step by step is the memory guard's (Footprint counts the array
// part's capacity).
const farIndex = 1 << 20

// maxAssignTemps bounds the hidden locals one assignment may need: every
// indexed target of a multiple assignment takes two.
const maxAssignTemps = 64

// assign rewrites an assignment, once its parts are rewritten, so that
//
//   - a multiple assignment evaluates every target's table and key before
//     it assigns anything, as Lua 5.1 does (gopher-lua evaluates a
//     target's table after the targets before it were assigned, so that
//     with local b = a, a, a[1] = 1, 2 failed where Lua 5.1 sets b[1]):
//     the tables and keys go to hidden locals first, save constants and
//     names that no target assigns;
//   - every key that may be a far integer is checked by (key) before the
//     store (t[k] = v becomes t[(key)(t, k)] = v).
func (r *rewriter) assign(s *ast.AssignStmt) ast.Stmt {
	r.exprs(s.Lhs)
	r.exprs(s.Rhs)
	if len(s.Lhs) == 1 {
		get, ok := s.Lhs[0].(*ast.AttrGetExpr)
		if !ok || !mayBeFar(get.Key) || appends(get.Object, get.Key) {
			return s
		}
		if _, plain := get.Object.(*ast.IdentExpr); plain {
			get.Key = hiddenCall(get.Key, hiddenKey, get.Object, get.Key)
			return s
		}
	}
	temps := &ast.LocalAssignStmt{}
	temp := func(e ast.Expr) ast.Expr {
		name := fmt.Sprintf("(t%d)", len(temps.Names)+1)
		temps.Names = append(temps.Names, name)
		temps.Exprs = append(temps.Exprs, e)
		id := &ast.IdentExpr{Value: name}
		id.SetLine(e.Line())
		id.SetLastLine(e.LastLine())
		return id
	}
	// A name no target assigns keeps its value through the assignment.
	assigned := map[string]bool{}
	for _, target := range s.Lhs {
		if id, ok := target.(*ast.IdentExpr); ok {
			assigned[id.Value] = true
		}
	}
	stable := func(e ast.Expr) bool {
		id, ok := e.(*ast.IdentExpr)
		return isConstant(e) || ok && !assigned[id.Value]
	}
	for _, target := range s.Lhs {
		get, ok := target.(*ast.AttrGetExpr)
		if !ok {
			continue
		}
		if !stable(get.Object) {
			get.Object = temp(get.Object)
		}
		if !stable(get.Key) {
			get.Key = temp(get.Key)
		}
		if mayBeFar(get.Key) {
			get.Key = hiddenCall(get.Key, hiddenKey, get.Object, get.Key)
		}
	}
	if len(temps.Names) == 0 {
		return s
	}
	if len(temps.Names) > maxAssignTemps && r.err == nil {
		r.err = fmt.Errorf("%s:%d: an assignment to more than %d table fields at once; split it", ChunkName, s.Line(), maxAssignTemps/2)
	}
	temps.SetLine(s.Line())
	block := &ast.DoBlockStmt{Stmts: []ast.Stmt{temps, s}}
	block.SetLine(s.Line())
	block.SetLastLine(s.LastLine())
	return block
}

// constructor checks the keys of a table constructor's keyed fields that
// may be far integers: {[k] = v} becomes {[(key)(nil, k)] = v}, nil for
// the table under construction, whose array part is still small.
func constructor(e *ast.TableExpr) {
	for _, f := range e.Fields {
		if f.Key != nil && mayBeFar(f.Key) {
			f.Key = hiddenCall(f.Key, hiddenKey, &ast.NilExpr{}, f.Key)
		}
	}
}

// forBounds has a numeric for convert its bounds as Lua 5.1 does ("10"
// counts as 10): each one that is not a numeral goes through (fornum).
func forBounds(s *ast.NumberForStmt) {
	bound := func(e ast.Expr, what string) ast.Expr {
		if e == nil || isNumeral(e) {
			return e
		}
		return hiddenCall(e, hiddenForNumber, e, str(e, what))
	}
	s.Init = bound(s.Init, "initial value")
	s.Limit = bound(s.Limit, "limit")
	s.Step = bound(s.Step, "step")
}

func isNumeral(e ast.Expr) bool {
	if neg, ok := e.(*ast.UnaryMinusOpExpr); ok {
		e = neg.Expr
	}
	_, ok := e.(*ast.NumberExpr)
	return ok
}

// appends reports whether key is #obj + n for a name obj and a small
// numeral n, as in t[#t + 1] = v: the border is within the array part, so
// the key is never far, and the idiom is spared the check.
func appends(obj, key ast.Expr) bool {
	name, ok := obj.(*ast.IdentExpr)
	sum, isSum := key.(*ast.ArithmeticOpExpr)
	if !ok || !isSum || sum.Operator != "+" {
		return false
	}
	n, isNumber := sum.Rhs.(*ast.NumberExpr)
	length, isCall := sum.Lhs.(*ast.FuncCallExpr)
	if !isNumber || mayBeFar(n) || !isCall || len(length.Args) != 1 {
		return false
	}
	fn, isHidden := length.Func.(*ast.IdentExpr)
	arg, isName := length.Args[0].(*ast.IdentExpr)
	return isHidden && fn.Value == hidden[hiddenLen] && isName && arg.Value == name.Value
}

// isConstant reports whether evaluating e later gives the same value.
func isConstant(e ast.Expr) bool {
	switch e.(type) {
	case *ast.StringExpr, *ast.NumberExpr, *ast.NilExpr, *ast.TrueExpr, *ast.FalseExpr:
		return true
	}
	return false
}

// mayBeFar reports whether key may be an integer far enough past the end
// of an array part to need checkIntegerKey.
func mayBeFar(key ast.Expr) bool {
	switch key := key.(type) {
	case *ast.StringExpr, *ast.NilExpr, *ast.TrueExpr, *ast.FalseExpr, *ast.FunctionExpr, *ast.TableExpr:
		return false
	case *ast.NumberExpr:
		f, err := strconv.ParseFloat(key.Value, 64)
		return err != nil || f > presizeGap
	}
	return true
}

// checkKey is (key): it returns its second argument, the key of a store
// into its first, after refusing what gopher-lua would mishandle: a NaN
// key, and an integer key so far past the end of the table's array part
// that gopher-lua would fill every slot up to it in one step.
func checkKey(L *glua.LState) int {
	if n, ok := L.Get(2).(glua.LNumber); ok {
		t, _ := L.Get(1).(*glua.LTable)
		checkIntegerKey(L, t, float64(n), "table index")
	}
	L.SetTop(2)
	return 1
}

// checkIntegerKey raises the error of a store of key f into t (nil: a
// table being built) that gopher-lua would mishandle (see checkKey).
func checkIntegerKey(L *glua.LState, t *glua.LTable, f float64, what string) {
	if gomath.IsNaN(f) {
		L.RaiseError("%s is NaN", what)
	}
	if f != gomath.Trunc(f) || f < 1 || f >= float64(glua.MaxArrayIndex) {
		return // a hash key
	}
	end := 0
	if t != nil {
		end = arrayLen(t)
	}
	if f > float64(end+farIndex) {
		L.RaiseError("%s %s is too far past the end of the table's list part (%d): gopher-lua would fill every slot up to it at once; key such a table by string instead, t[tostring(k)]", what, numberString(f), end)
	}
	if t != nil && f > float64(end+presizeGap) {
		growArray(t, int(f))
	}
}

// presizeGap is how far past the end of an array part a key must be for
// checkIntegerKey to size the array part for it: gopher-lua fills the gap
// one append at a time, which for a gap of a million slots allocates five
// times the array's size as it regrows.
const presizeGap = 1 << 10

// growArray gives t's array part room for n slots, its contents kept. It
// grows by a quarter at least, as append does, so that a sparse fill
// copies its array a few times over, not once per step.
func growArray(t *glua.LTable, n int) {
	array := arrayOf(t)
	if cap(*array) >= n {
		return
	}
	grown := make([]glua.LValue, len(*array), max(n, cap(*array)+cap(*array)/4))
	copy(grown, *array)
	*array = grown
}

// arrayLen is the length of t's array part, holes included: what a store
// at an integer key would fill up from.
func arrayLen(t *glua.LTable) int { return len(*arrayOf(t)) }

// arrayCap is the capacity of t's array part, what it holds on to.
func arrayCap(t *glua.LTable) int { return cap(*arrayOf(t)) }

func arrayOf(t *glua.LTable) *[]glua.LValue {
	return (*[]glua.LValue)(unsafe.Add(unsafe.Pointer(t), tables().array))
}

// forNumber is (fornum): a numeric for's bound as Lua 5.1 takes it, a
// number or a string that reads as one.
func forNumber(L *glua.LState) int {
	switch v := L.Get(1).(type) {
	case glua.LNumber:
		L.Push(v)
		return 1
	case glua.LString:
		if f, ok := parseNumeral(strings.TrimSpace(string(v))); ok {
			L.Push(glua.LNumber(f))
			return 1
		}
	}
	L.RaiseError("'for' %s must be a number", L.CheckString(2))
	return 0
}
