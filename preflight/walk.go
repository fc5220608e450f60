package preflight

import (
	"math"
	"strconv"

	"github.com/yuin/gopher-lua/ast"

	"github.com/execlua/execlua/internal/jsonschema"
	"github.com/execlua/execlua/internal/jsontext"
	"github.com/execlua/execlua/render"
)

// walker reads a parsed script twice: collect finds the functions that
// run under pcall, xpcall or a coroutine (whose errors the script
// catches) and whether the tools table is used other than by calling
// it; check then checks the calls outside those functions.
type walker struct {
	c         *Checker
	checking  bool
	protected map[string]bool // names of functions a script runs caught
	aliased   bool            // tools shadowed, reassigned or passed on: give up
	problems  []Problem
}

// maxDepth bounds the walk; a script nested deeper is left to the run.
const maxDepth = 200

const toolsName = "tools"

func (w *walker) collect(chunk []ast.Stmt) {
	w.stmts(chunk, false, 0)
	w.checking = true
}

func (w *walker) stmts(list []ast.Stmt, caught bool, depth int) {
	for _, s := range list {
		w.stmt(s, caught, depth+1)
	}
}

func (w *walker) stmt(s ast.Stmt, caught bool, depth int) {
	if depth > maxDepth {
		w.aliased = true
		return
	}
	switch s := s.(type) {
	case *ast.AssignStmt:
		for _, lhs := range s.Lhs {
			if isTools(lhs) || isTools(objectOf(lhs)) {
				w.aliased = true
			}
			if _, ident := lhs.(*ast.IdentExpr); !ident {
				w.expr(lhs, caught, depth)
			}
		}
		w.values(names(s.Lhs), s.Rhs, caught, depth)
	case *ast.LocalAssignStmt:
		w.declare(s.Names...)
		w.values(s.Names, s.Exprs, caught, depth)
	case *ast.FuncCallStmt:
		w.expr(s.Expr, caught, depth)
	case *ast.DoBlockStmt:
		w.stmts(s.Stmts, caught, depth)
	case *ast.WhileStmt:
		w.expr(s.Condition, caught, depth)
		w.stmts(s.Stmts, caught, depth)
	case *ast.RepeatStmt:
		w.stmts(s.Stmts, caught, depth)
		w.expr(s.Condition, caught, depth)
	case *ast.IfStmt:
		w.expr(s.Condition, caught, depth)
		w.stmts(s.Then, caught, depth)
		w.stmts(s.Else, caught, depth)
	case *ast.NumberForStmt:
		w.declare(s.Name)
		w.exprs([]ast.Expr{s.Init, s.Limit, s.Step}, caught, depth)
		w.stmts(s.Stmts, caught, depth)
	case *ast.GenericForStmt:
		w.declare(s.Names...)
		w.exprs(s.Exprs, caught, depth)
		w.stmts(s.Stmts, caught, depth)
	case *ast.FuncDefStmt:
		w.funcDef(s, caught, depth)
	case *ast.ReturnStmt:
		w.exprs(s.Exprs, caught, depth)
	}
}

func (w *walker) funcDef(s *ast.FuncDefStmt, caught bool, depth int) {
	target := s.Name.Func
	if s.Name.Receiver != nil {
		target = s.Name.Receiver
	}
	if isTools(target) || isTools(objectOf(target)) {
		w.aliased = true
	}
	if id, ok := target.(*ast.IdentExpr); ok && s.Name.Receiver == nil {
		caught = caught || w.protected[id.Value]
	} else {
		w.expr(target, caught, depth)
	}
	w.function(s.Func, caught, depth)
}

// values walks the values assigned to names, a function bound to a name
// the script runs caught being caught itself.
func (w *walker) values(names []string, values []ast.Expr, caught bool, depth int) {
	for i, v := range values {
		c := caught
		if i < len(names) && w.protected[names[i]] {
			c = true
		}
		w.expr(v, c, depth)
	}
}

func names(exprs []ast.Expr) []string {
	out := make([]string, len(exprs))
	for i, e := range exprs {
		if id, ok := e.(*ast.IdentExpr); ok {
			out[i] = id.Value
		}
	}
	return out
}

func (w *walker) declare(names ...string) {
	for _, n := range names {
		if n == toolsName {
			w.aliased = true
		}
	}
}

func (w *walker) function(f *ast.FunctionExpr, caught bool, depth int) {
	if f.ParList != nil {
		w.declare(f.ParList.Names...)
	}
	w.stmts(f.Stmts, caught, depth)
}

func (w *walker) exprs(list []ast.Expr, caught bool, depth int) {
	for _, e := range list {
		if e != nil {
			w.expr(e, caught, depth)
		}
	}
}

func (w *walker) expr(e ast.Expr, caught bool, depth int) {
	depth++
	if depth > maxDepth {
		w.aliased = true
		return
	}
	switch e := e.(type) {
	case *ast.IdentExpr:
		if e.Value == toolsName {
			w.aliased = true // the table itself, passed on or compared
		}
	case *ast.AttrGetExpr:
		if !isTools(e.Object) {
			w.expr(e.Object, caught, depth)
		}
		w.expr(e.Key, caught, depth)
	case *ast.TableExpr:
		for _, f := range e.Fields {
			w.exprs([]ast.Expr{f.Key, f.Value}, caught, depth)
		}
	case *ast.FuncCallExpr:
		w.call(e, caught, depth)
	case *ast.LogicalOpExpr:
		w.exprs([]ast.Expr{e.Lhs, e.Rhs}, caught, depth)
	case *ast.RelationalOpExpr:
		w.exprs([]ast.Expr{e.Lhs, e.Rhs}, caught, depth)
	case *ast.StringConcatOpExpr:
		w.exprs([]ast.Expr{e.Lhs, e.Rhs}, caught, depth)
	case *ast.ArithmeticOpExpr:
		w.exprs([]ast.Expr{e.Lhs, e.Rhs}, caught, depth)
	case *ast.UnaryMinusOpExpr:
		w.expr(e.Expr, caught, depth)
	case *ast.UnaryNotOpExpr:
		w.expr(e.Expr, caught, depth)
	case *ast.UnaryLenOpExpr:
		w.expr(e.Expr, caught, depth)
	case *ast.FunctionExpr:
		w.function(e, caught, depth)
	}
}

// call checks a call of a tool, and walks any call's parts; the arguments
// of pcall, xpcall, coroutine.create and coroutine.wrap run caught.
func (w *walker) call(e *ast.FuncCallExpr, caught bool, depth int) {
	report := w.checking && !caught
	switch {
	case isTools(e.Receiver):
		if report {
			form := render.CallForm(e.Method)
			w.problems = append(w.problems, Problem{e.Line(), e.Method, form + ": call it with a dot, not a colon: " + form + "{...}"})
		}
	case e.Receiver != nil:
		w.expr(e.Receiver, caught, depth)
	}
	if name, ok := toolCalled(e.Func); ok {
		if report {
			if p := w.c.checkCall(e, name); p != nil {
				w.problems = append(w.problems, *p)
			}
		}
	} else if e.Func != nil {
		w.expr(e.Func, caught, depth)
	}
	if catches(e) {
		caught = true
		if len(e.Args) > 0 {
			if id, ok := e.Args[0].(*ast.IdentExpr); ok {
				w.protected[id.Value] = true
			}
		}
	}
	w.exprs(e.Args, caught, depth)
}

// catches reports whether call runs its function argument with its
// errors caught: pcall, xpcall, or a coroutine (resume returns them).
func catches(call *ast.FuncCallExpr) bool {
	switch f := call.Func.(type) {
	case *ast.IdentExpr:
		return f.Value == "pcall" || f.Value == "xpcall"
	case *ast.AttrGetExpr:
		lib, ok := f.Object.(*ast.IdentExpr)
		key, kok := f.Key.(*ast.StringExpr)
		return ok && kok && lib.Value == "coroutine" && (key.Value == "create" || key.Value == "wrap")
	}
	return false
}

func isTools(e ast.Expr) bool {
	id, ok := e.(*ast.IdentExpr)
	return ok && id.Value == toolsName
}

func objectOf(e ast.Expr) ast.Expr {
	if a, ok := e.(*ast.AttrGetExpr); ok {
		return a.Object
	}
	return nil
}

// toolCalled returns the name of tools.<name> or tools["<name>"].
func toolCalled(f ast.Expr) (string, bool) {
	a, ok := f.(*ast.AttrGetExpr)
	if !ok || !isTools(a.Object) {
		return "", false
	}
	key, ok := a.Key.(*ast.StringExpr)
	if !ok {
		return "", false
	}
	return key.Value, true
}

// maxLiteralDepth bounds the conversion of nested table constructors.
const maxLiteralDepth = 32

var unknown = &jsontext.Value{Kind: jsonschema.Unknown}

// literal converts an argument as the sandbox would encode it, when it is
// written out: strings, numbers, booleans and table constructors of them
// (tools.null, which a lax schema may take where it names another type,
// is left unknown). Anything else is of Kind Unknown; nil (for a Lua
// nil, which a table constructor drops) is returned as nil. An empty table
// is an object at the top (the arguments) and Unknown below, where the
// schema decides.
func literal(e ast.Expr, depth int, top bool) (*jsontext.Value, bool) {
	switch e := e.(type) {
	case *ast.StringExpr:
		return &jsontext.Value{Kind: 's', Str: e.Value}, true
	case *ast.NumberExpr:
		return number(e.Value, false)
	case *ast.UnaryMinusOpExpr:
		if n, ok := e.Expr.(*ast.NumberExpr); ok {
			return number(n.Value, true)
		}
	case *ast.TrueExpr:
		return &jsontext.Value{Kind: 'b', Bool: true}, true
	case *ast.FalseExpr:
		return &jsontext.Value{Kind: 'b'}, true
	case *ast.NilExpr:
		if top {
			return &jsontext.Value{Kind: 'o'}, true
		}
		return nil, true
	case *ast.TableExpr:
		if depth < maxLiteralDepth {
			return table(e, depth, top), true
		}
	}
	return unknown, false
}

// number is a Lua numeral as the sandbox encodes it.
func number(text string, negative bool) (*jsontext.Value, bool) {
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		n, ierr := strconv.ParseInt(text, 0, 64) // 0x10
		if ierr != nil {
			return unknown, false
		}
		f = float64(n)
	}
	if negative {
		f = -f
	}
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return unknown, false
	}
	return &jsontext.Value{Kind: 'n', Str: strconv.FormatFloat(f, 'g', -1, 64)}, true
}

// table converts a table constructor: all fields positional is an array,
// all named is an object; anything else is Unknown.
func table(t *ast.TableExpr, depth int, top bool) *jsontext.Value {
	if len(t.Fields) == 0 {
		if top {
			return &jsontext.Value{Kind: 'o'}
		}
		return unknown
	}
	positional := t.Fields[0].Key == nil
	v := &jsontext.Value{Kind: 'o'}
	if positional {
		v.Kind = 'a'
	}
	for i, f := range t.Fields {
		if (f.Key == nil) != positional {
			return unknown
		}
		if positional {
			if _, call := f.Value.(*ast.FuncCallExpr); i == len(t.Fields)-1 && (call || isVararg(f.Value)) {
				return unknown // the last value may expand to several
			}
		}
		elem, _ := literal(f.Value, depth+1, false)
		if positional {
			if elem == nil {
				return unknown // a hole: the length is not sure
			}
			v.Members = append(v.Members, jsontext.Member{Value: elem})
			continue
		}
		key, ok := f.Key.(*ast.StringExpr)
		if !ok {
			return unknown
		}
		if elem != nil {
			v.Members = append(v.Members, jsontext.Member{Key: key.Value, Value: elem})
		} else {
			v.Members = dropMember(v.Members, key.Value)
		}
	}
	return v
}

func isVararg(e ast.Expr) bool {
	_, ok := e.(*ast.Comma3Expr)
	return ok
}

// dropMember removes key: a later { k = nil } undoes an earlier k.
func dropMember(ms []jsontext.Member, key string) []jsontext.Member {
	out := ms[:0]
	for _, m := range ms {
		if m.Key != key {
			out = append(out, m)
		}
	}
	return out
}
