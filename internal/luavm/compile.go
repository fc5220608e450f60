package luavm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/execlua/execlua/render"
	glua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/ast"
	"github.com/yuin/gopher-lua/parse"
)

// ChunkName is the name scripts carry in error positions ("script:3: ...").
const ChunkName = "script"

// Hidden locals the compiler adds at the top of every script. Their names
// are not Lua identifiers, so no script can name, shadow or reassign them.
var hidden = []string{"(concat)", "(removed)", "(tool)", "(result)", "(none)", "(absent)", "(len)", "(key)", "(fornum)", "(toolarg)"}

const (
	hiddenConcat = iota
	hiddenRemoved
	hiddenTool
	hiddenResult
	hiddenNone
	// hiddenAbsent stands for a removed global handed to pcall or
	// xpcall: a function that fails in plain words.
	hiddenAbsent
	// hiddenLen is the # operator of Lua 5.1, which ignores __len on
	// tables (gopher-lua's VM honours it).
	hiddenLen
	// hiddenKey checks the key of a store that may be a far integer
	// (assign.go).
	hiddenKey
	// hiddenForNumber converts a numeric for's bound (assign.go).
	hiddenForNumber
	// hiddenToolArg stands for tools.name handed to pcall or xpcall: the
	// tool's caller, or a function that fails as calling the name would.
	hiddenToolArg
)

// Compile parses a script and rewrites what gopher-lua gives no hook for:
//
//   - a .. b becomes a call to a size-capped concatenation, so string growth
//     is bounded like every other builtin (ISO-8);
//   - calling or indexing a removed global (require(...), os.time()) fails
//     with a plain-words error instead of "attempt to call a non-function
//     object" (ISO-3), while the name itself still reads as nil (ISO-1);
//   - tools.name(...) on an unknown name says which field was nil, and so
//     does pcall(tools.name, ...);
//   - a store whose key may be a far integer checks the key first, and a
//     multiple assignment evaluates every target before assigning
//     (assign.go); a numeric for converts string bounds;
//   - a top-level return hands its values to (result), which keeps their
//     exact number (a coroutine's own return reports "no values" as one
//     nil), and a top-level ... is empty, as in a chunk run without
//     arguments.
//
// The same walk refuses, before gopher-lua compiles anything, what would
// make its compiler slow: more than maxNesting levels of nesting (its
// compile time grows with the square of the depth) and more than
// maxConstants distinct constants in one function (it looks each one up
// in a list).
//
// The hidden functions arrive as the chunk's arguments; Load supplies them.
func Compile(code string) (*Script, error) {
	return CompileContext(context.Background(), code)
}

// CompileContext is Compile giving up with ctx's cause once ctx is done:
// gopher-lua's parser reads the source through a reader that ends there.
func CompileContext(ctx context.Context, code string) (*Script, error) {
	chunk, err := parse.Parse(&contextReader{ctx: ctx, r: strings.NewReader(code)}, ChunkName)
	if ctx.Err() != nil {
		return nil, context.Cause(ctx)
	}
	if err != nil {
		return nil, syntaxError(err, code)
	}
	r := &rewriter{callees: map[int][]string{}, indexed: map[int]map[string][]string{}, consts: []map[string]bool{{}}, mentioned: map[string]bool{}}
	r.block(chunk)
	if r.err != nil {
		return nil, r.err
	}
	if ctx.Err() != nil {
		return nil, context.Cause(ctx)
	}
	wrapped := append([]ast.Stmt{&ast.LocalAssignStmt{Names: hidden, Exprs: []ast.Expr{&ast.Comma3Expr{}}}}, chunk...)
	proto, err := glua.Compile(wrapped, ChunkName)
	if err != nil {
		return nil, fmt.Errorf("compile error: %w", err)
	}
	return &Script{proto: trimmed(proto), callees: r.callees, indexed: r.indexed, mentioned: r.mentioned}, nil
}

// trimmed gives each function of a compiled chunk its own exactly sized
// code and line tables: gopher-lua's compiler leaves them as slices of
// 1,024-entry buffers, 12 KB per function, which a run would hold on to
// while it lives.
func trimmed(proto *glua.FunctionProto) *glua.FunctionProto {
	proto.Code = slices.Clone(proto.Code)
	proto.DbgSourcePositions = slices.Clone(proto.DbgSourcePositions)
	for _, p := range proto.FunctionPrototypes {
		trimmed(p)
	}
	return proto
}

// contextReader reads r until ctx is done, then reports the end.
type contextReader struct {
	ctx context.Context
	r   io.Reader
}

func (c *contextReader) Read(p []byte) (int, error) {
	if c.ctx.Err() != nil {
		return 0, io.EOF
	}
	return c.r.Read(p)
}

// Script is a compiled script, ready to Load into a state.
type Script struct {
	proto *glua.FunctionProto
	// callees names what each line calls ("global 'foo'", "field
	// 'split'"), for Explain.
	callees map[int][]string
	// indexed names, by line and key, what each line indexes with that key
	// ("n.author" for n.author.name), for Explain.
	indexed map[int]map[string][]string
	// mentioned are the removed globals the script names, as a name or a
	// string (rawget(_G, "load")), for Explain.
	mentioned map[string]bool
}

var (
	callError  = regexp.MustCompile(`^script:(\d+): attempt to call a non-function object$`)
	indexError = regexp.MustCompile(`^script:(\d+): attempt to index a non-table object\((\w+)\) with key '(.*)'$`)
)

// Explain completes gopher-lua's "attempt to call a non-function object",
// which names nothing, with what the script calls on that line, and its
// "attempt to index a non-table object(nil) with key 'name'" with what the
// line indexes with that key (n.author is nil), so that the model can see
// which name was wrong. Other messages are returned as they are.
func (sc *Script) Explain(msg string) string {
	if m := indexError.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		what := m[2]
		if what != "nil" {
			what = "a " + what
		}
		if paths := sc.indexed[line][m[3]]; len(paths) > 0 {
			msg += " (" + strings.Join(paths, " or ") + " is " + what + ")"
		}
		return msg
	}
	m := callError.FindStringSubmatch(msg)
	if m == nil {
		return msg
	}
	line, _ := strconv.Atoi(m[1])
	switch names := sc.callees[line]; len(names) {
	case 0:
	case 1:
		msg += " (" + names[0] + " is not a function)"
	default:
		msg += " (one of " + strings.Join(names, ", ") + " is not a function)"
	}
	var absent []string
	for name := range sc.mentioned {
		absent = append(absent, name+" is not available inside Exec: "+removedGlobals[name])
	}
	slices.Sort(absent)
	if len(absent) > 0 {
		msg += "; note: " + strings.Join(absent, "; ")
	}
	return msg
}

// syntaxError words a parse error the way C Lua places one, by line, with
// a hint when the line holds something models bring from newer Lua or
// other languages.
func syntaxError(err error, code string) error {
	var pe *parse.Error
	if !errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", ChunkName, err)
	}
	msg := strings.TrimSpace(pe.Message)
	if pe.Pos.Line == parse.EOF {
		return fmt.Errorf("%s: %s at the end of the script", ChunkName, msg)
	}
	msg = fmt.Sprintf("%s:%d: %s near '%s' (column %d)", ChunkName, pe.Pos.Line, msg, pe.Token, pe.Pos.Column)
	lines := strings.Split(code, "\n")
	if pe.Pos.Line < 1 || pe.Pos.Line > len(lines) {
		return errors.New(msg)
	}
	line := lines[pe.Pos.Line-1]
	for _, h := range syntaxHints {
		if (h.token == "" || h.token == pe.Token) && h.line.MatchString(line) {
			return errors.New(msg + "; " + h.hint)
		}
	}
	return errors.New(msg)
}

// syntaxHints are the first ones to check when the parser stops on a line:
// the token it stopped at ("" for any) and what the line holds.
var syntaxHints = []struct {
	token string
	line  *regexp.Regexp
	hint  string
}{
	{"/", regexp.MustCompile(`//`), "Lua 5.1 has no // operator: write math.floor(a / b)"},
	{"!", regexp.MustCompile(`!=`), "Lua writes not-equal as ~="},
	{"", regexp.MustCompile(`[-+*/%]=`), "Lua has no +=, -=, *= or /=: write x = x + 1"},
	{"", regexp.MustCompile(`\bcontinue\b`), "Lua has no continue: write goto continue, with the label ::continue:: just before the loop's end"},
	{"=", regexp.MustCompile(`=>`), "Lua has no arrow functions: write function(x) return x + 1 end"},
	{"[", regexp.MustCompile(`[=(,{]\s*\[`), "a list is a table in Lua: { 1, 2, 3 }, not [1, 2, 3]"},
	{"", regexp.MustCompile(`[{,]\s*[A-Za-z_]\w*\s*:\s*[^:\s]`), "table fields are written { name = value }, not name: value"},
	{"`", regexp.MustCompile("`"), "Lua strings are quoted with ' or \", and built with .. or string.format"},
	{"<", regexp.MustCompile(`<\s*(const|close)\s*>`), "Lua 5.1 has no <const> or <close>: write a plain local"},
	{"", regexp.MustCompile(`&|\||<<|>>|~[^=]`), "Lua 5.1 has no bitwise operators (&, |, ~, <<, >>) and no bit library: compute with arithmetic"},
}

// rewriter walks the AST keeping the set of local names in scope, so that
// a script's own local named like a removed global is left alone.
type rewriter struct {
	scopes []map[string]bool
	// callees collects, by line, the named things the script calls;
	// indexed, by line and key, the named things it indexes.
	callees map[int][]string
	indexed map[int]map[string][]string
	// depth is how many function bodies enclose the current node; 0 is
	// the script's top level.
	depth int
	// nest is how many blocks, functions and operands enclose the node;
	// consts holds the distinct constants of each enclosing function,
	// innermost last; err is the first limit the source broke, after
	// which the walk stops.
	nest      int
	consts    []map[string]bool
	err       error
	mentioned map[string]bool
	// funcs holds, for each enclosing function (the chunk first), the
	// index in scopes where its own scopes begin and the outer locals it
	// refers to (its upvalues).
	funcs []funcScope
}

type funcScope struct {
	base     int
	upvalues map[string]bool
}

const (
	// maxNesting is C Lua's limit of syntax levels (LUAI_MAXCCALLS).
	maxNesting = 200
	// maxConstants keeps one function's compilation near 0.3 s.
	maxConstants = 10_000
	// maxCallees bounds the names kept per line for Explain.
	maxCallees = 8
	// maxUpvalues is what gopher-lua's instructions can address.
	maxUpvalues = 255
)

// local notes a use of a local name: when it belongs to an enclosing
// function, it is an upvalue of every function in between.
func (r *rewriter) local(line int, name string) {
	at := -1
	for i := len(r.scopes) - 1; i >= 0; i-- {
		if r.scopes[i][name] {
			at = i
			break
		}
	}
	for k := len(r.funcs) - 1; k >= 0 && r.funcs[k].base > at; k-- {
		ups := r.funcs[k].upvalues
		ups[name] = true
		if len(ups) > maxUpvalues && r.err == nil {
			r.err = fmt.Errorf("%s:%d: a function refers to more than %d local variables of the functions around it; keep them in a table instead", ChunkName, line, maxUpvalues)
		}
	}
}

// enter steps one level deeper; it reports false once a limit is broken.
func (r *rewriter) enter(line int) bool {
	r.nest++
	if r.nest > maxNesting && r.err == nil {
		r.err = fmt.Errorf("%s:%d: the script nests blocks, functions or expressions more than %d levels deep", ChunkName, line, maxNesting)
	}
	return r.err == nil
}

func (r *rewriter) leave() { r.nest-- }

// constant counts one constant of the current function.
func (r *rewriter) constant(line int, kind byte, value string) {
	consts := r.consts[len(r.consts)-1]
	consts[string(kind)+value] = true
	if len(consts) > maxConstants && r.err == nil {
		r.err = fmt.Errorf("%s:%d: a function uses more than %d distinct constants (numbers, strings, names); split it or fetch large data from a tool", ChunkName, line, maxConstants)
	}
}

func (r *rewriter) push(names ...string) {
	scope := map[string]bool{}
	for _, n := range names {
		scope[n] = true
	}
	r.scopes = append(r.scopes, scope)
}

func (r *rewriter) pop() { r.scopes = r.scopes[:len(r.scopes)-1] }

func (r *rewriter) declare(names ...string) {
	for _, n := range names {
		r.scopes[len(r.scopes)-1][n] = true
	}
}

func (r *rewriter) isGlobal(name string) bool {
	for i := len(r.scopes) - 1; i >= 0; i-- {
		if r.scopes[i][name] {
			return false
		}
	}
	return true
}

func (r *rewriter) block(stmts []ast.Stmt) {
	line := 0
	if len(stmts) > 0 {
		line = stmts[0].Line()
	}
	defer r.leave()
	if !r.enter(line) {
		return
	}
	r.push()
	r.stmts(stmts)
	r.pop()
}

func (r *rewriter) stmts(stmts []ast.Stmt) {
	for i, s := range stmts {
		stmts[i] = r.stmt(s)
	}
}

func (r *rewriter) exprs(es []ast.Expr) {
	for i := range es {
		es[i] = r.expr(es[i])
	}
}

// stmt rewrites s and returns what takes its place.
func (r *rewriter) stmt(s ast.Stmt) ast.Stmt {
	switch s := s.(type) {
	case *ast.AssignStmt:
		return r.assign(s)
	case *ast.LocalAssignStmt:
		if len(s.Names) == 1 && len(s.Exprs) == 1 {
			if _, ok := s.Exprs[0].(*ast.FunctionExpr); ok {
				r.declare(s.Names...) // local function f: f is visible in its body
			}
		}
		r.exprs(s.Exprs)
		r.declare(s.Names...)
	case *ast.FuncCallStmt:
		s.Expr = r.expr(s.Expr)
	case *ast.DoBlockStmt:
		r.block(s.Stmts)
	case *ast.WhileStmt:
		s.Condition = r.expr(s.Condition)
		r.block(s.Stmts)
	case *ast.RepeatStmt:
		r.push() // the condition sees the body's locals
		r.stmts(s.Stmts)
		s.Condition = r.expr(s.Condition)
		r.pop()
	case *ast.IfStmt:
		s.Condition = r.expr(s.Condition)
		r.block(s.Then)
		if len(s.Else) == 1 {
			if _, elseif := s.Else[0].(*ast.IfStmt); elseif {
				// An elseif chain is as deep as it is long in the AST,
				// but not in the source.
				r.push()
				s.Else[0] = r.stmt(s.Else[0])
				r.pop()
				break
			}
		}
		r.block(s.Else)
	case *ast.NumberForStmt:
		s.Init = r.expr(s.Init)
		s.Limit = r.expr(s.Limit)
		if s.Step != nil {
			s.Step = r.expr(s.Step)
		}
		forBounds(s)
		r.push(s.Name)
		r.stmts(s.Stmts)
		r.pop()
	case *ast.GenericForStmt:
		r.exprs(s.Exprs)
		r.push(s.Names...)
		r.stmts(s.Stmts)
		r.pop()
	case *ast.FuncDefStmt:
		if s.Name.Method != "" {
			r.constant(s.Line(), 's', s.Name.Method)
		}
		if s.Name.Func != nil {
			s.Name.Func = r.expr(s.Name.Func)
		}
		if s.Name.Receiver != nil {
			s.Name.Receiver = r.object(s.Name.Receiver)
		}
		r.function(s.Func)
	case *ast.ReturnStmt:
		r.exprs(s.Exprs)
		if r.depth == 0 {
			s.Exprs = []ast.Expr{hiddenCall(s, hiddenResult, s.Exprs...)}
		}
	}
	return s
}

func (r *rewriter) function(f *ast.FunctionExpr) {
	defer r.leave()
	if !r.enter(f.Line()) {
		return
	}
	r.depth++
	r.consts = append(r.consts, map[string]bool{})
	r.funcs = append(r.funcs, funcScope{base: len(r.scopes), upvalues: map[string]bool{}})
	r.push(f.ParList.Names...)
	r.declare("self")
	r.stmts(f.Stmts)
	r.pop()
	r.funcs = r.funcs[:len(r.funcs)-1]
	r.consts = r.consts[:len(r.consts)-1]
	r.depth--
}

// operand walks the left operand of a binary operator at the operator's
// own level: a chain a + b + c nests to the left in the AST, not in the
// source.
func (r *rewriter) operand(e ast.Expr) ast.Expr {
	r.nest--
	defer func() { r.nest++ }()
	return r.expr(e)
}

func (r *rewriter) expr(e ast.Expr) ast.Expr {
	defer r.leave()
	if !r.enter(e.Line()) {
		return e
	}
	switch e := e.(type) {
	case *ast.NumberExpr:
		r.constant(e.Line(), 'n', e.Value)
	case *ast.StringExpr:
		r.constant(e.Line(), 's', e.Value)
		if _, ok := removedGlobals[e.Value]; ok {
			r.mentioned[e.Value] = true
		}
	case *ast.IdentExpr:
		if r.isGlobal(e.Value) {
			r.constant(e.Line(), 's', e.Value)
			if r.removed(e.Value) {
				r.mentioned[e.Value] = true
			}
		} else {
			r.local(e.Line(), e.Value)
		}
	case *ast.AttrGetExpr:
		r.noteIndex(e.Line(), e.Object, e.Key)
		e.Object = r.object(e.Object)
		e.Key = r.expr(e.Key)
	case *ast.TableExpr:
		for _, f := range e.Fields {
			if f.Key != nil {
				f.Key = r.expr(f.Key)
			}
			f.Value = r.expr(f.Value)
		}
		constructor(e)
	case *ast.FuncCallExpr:
		if e.Method != "" {
			r.constant(e.Line(), 's', e.Method)
		}
		r.noteCallee(e)
		if e.Func != nil {
			e.Func = r.callee(e.Func)
		}
		if e.Receiver != nil {
			r.noteIndex(e.Line(), e.Receiver, &ast.StringExpr{Value: e.Method})
			e.Receiver = r.object(e.Receiver)
		}
		r.exprs(e.Args)
		r.absentArgument(e)
	case *ast.LogicalOpExpr:
		e.Lhs, e.Rhs = r.operand(e.Lhs), r.expr(e.Rhs)
	case *ast.RelationalOpExpr:
		e.Lhs, e.Rhs = r.operand(e.Lhs), r.expr(e.Rhs)
	case *ast.ArithmeticOpExpr:
		e.Lhs, e.Rhs = r.operand(e.Lhs), r.expr(e.Rhs)
	case *ast.UnaryMinusOpExpr:
		e.Expr = r.expr(e.Expr)
	case *ast.UnaryNotOpExpr:
		e.Expr = r.expr(e.Expr)
	case *ast.UnaryLenOpExpr:
		return hiddenCall(e, hiddenLen, r.expr(e.Expr))
	case *ast.FunctionExpr:
		r.function(e)
	case *ast.StringConcatOpExpr:
		return r.concat(e)
	case *ast.Comma3Expr:
		if r.depth == 0 {
			call := hiddenCall(e, hiddenNone).(*ast.FuncCallExpr)
			call.AdjustRet = e.AdjustRet
			return call
		}
	}
	return e
}

// concat turns a chain a .. b .. c into one call (concat)(a, b, c).
func (r *rewriter) concat(e *ast.StringConcatOpExpr) ast.Expr {
	var operands []ast.Expr
	var flatten func(ast.Expr)
	flatten = func(x ast.Expr) {
		if c, ok := x.(*ast.StringConcatOpExpr); ok {
			flatten(c.Lhs)
			flatten(c.Rhs)
			return
		}
		operands = append(operands, r.expr(x))
	}
	flatten(e)
	return hiddenCall(e, hiddenConcat, operands...)
}

// noteCallee records what a call names, as C Lua would in its message.
func (r *rewriter) noteCallee(e *ast.FuncCallExpr) {
	var name string
	switch f := e.Func.(type) {
	case nil:
		name = "method '" + e.Method + "'"
	case *ast.IdentExpr:
		if r.isGlobal(f.Value) {
			name = "global '" + f.Value + "'"
		} else {
			name = "local '" + f.Value + "'"
		}
	case *ast.AttrGetExpr:
		if key, ok := f.Key.(*ast.StringExpr); ok {
			name = "field '" + key.Value + "'"
		}
	}
	if names := r.callees[e.Line()]; name != "" && len(names) < maxCallees && !slices.Contains(names, name) {
		r.callees[e.Line()] = append(r.callees[e.Line()], name)
	}
}

// noteIndex records that a line indexes obj with key, when both can be
// written down (n.author, items[2]), as C Lua would name them.
func (r *rewriter) noteIndex(line int, obj, key ast.Expr) {
	path, ok := pathOf(obj, 0)
	if !ok {
		return
	}
	var k string
	switch key := key.(type) {
	case *ast.StringExpr:
		k = key.Value
	case *ast.NumberExpr:
		k = key.Value
	default:
		return
	}
	byKey := r.indexed[line]
	if byKey == nil {
		byKey = map[string][]string{}
		r.indexed[line] = byKey
	}
	if paths := byKey[k]; len(paths) < maxCallees && !slices.Contains(paths, path) {
		byKey[k] = append(paths, path)
	}
}

// maxPathDepth bounds how many steps of a path noteIndex writes down.
const maxPathDepth = 8

// pathOf writes an expression made of a name and constant keys as Lua:
// n, n.author, n.items[2], n["a-b"].
func pathOf(e ast.Expr, depth int) (string, bool) {
	if depth > maxPathDepth {
		return "", false
	}
	switch e := e.(type) {
	case *ast.IdentExpr:
		return e.Value, true
	case *ast.AttrGetExpr:
		obj, ok := pathOf(e.Object, depth+1)
		if !ok {
			return "", false
		}
		switch key := e.Key.(type) {
		case *ast.StringExpr:
			if render.IsIdentifier(key.Value) {
				return obj + "." + key.Value, true
			}
			return obj + "[" + render.Quote(key.Value) + "]", true
		case *ast.NumberExpr:
			return obj + "[" + key.Value + "]", true
		}
	}
	return "", false
}

// object rewrites the object of an index: os.time -> (removed)("os").time,
// and _G.os.time alike.
func (r *rewriter) object(e ast.Expr) ast.Expr {
	if name, at, ok := r.removedName(e); ok {
		return hiddenCall(at, hiddenRemoved, str(at, name))
	}
	return r.expr(e)
}

// removedName recognizes a removed global named directly or through _G.
func (r *rewriter) removedName(e ast.Expr) (string, ast.PositionHolder, bool) {
	switch e := e.(type) {
	case *ast.IdentExpr:
		return e.Value, e, r.removed(e.Value)
	case *ast.AttrGetExpr:
		obj, isIdent := e.Object.(*ast.IdentExpr)
		key, isString := e.Key.(*ast.StringExpr)
		if isIdent && isString && obj.Value == "_G" && r.isGlobal("_G") {
			_, removed := removedGlobals[key.Value]
			if removed {
				r.mentioned[key.Value] = true
			}
			return key.Value, e, removed
		}
	}
	return "", nil, false
}

// absentArgument rewrites a removed global or a tool handed to pcall or
// xpcall, so that the call fails in plain words: pcall(require, "x"),
// pcall(tools.nosuch, {}) as tools.nosuch{} would.
func (r *rewriter) absentArgument(e *ast.FuncCallExpr) {
	fn, ok := e.Func.(*ast.IdentExpr)
	if !ok || fn.Value != "pcall" && fn.Value != "xpcall" || !r.isGlobal(fn.Value) || len(e.Args) == 0 {
		return
	}
	switch arg := e.Args[0].(type) {
	case *ast.IdentExpr:
		if r.removed(arg.Value) {
			e.Args[0] = hiddenCall(arg, hiddenAbsent, str(arg, arg.Value))
		}
	case *ast.AttrGetExpr:
		obj, isIdent := arg.Object.(*ast.IdentExpr)
		key, isString := arg.Key.(*ast.StringExpr)
		if isIdent && isString && obj.Value == "tools" && r.isGlobal("tools") {
			e.Args[0] = hiddenCall(arg, hiddenToolArg, obj, key)
		}
	}
}

// callee rewrites what is called: require(...) -> (removed)("require")(...)
// and tools.x(...) -> (tool)(tools, "x")(...).
func (r *rewriter) callee(e ast.Expr) ast.Expr {
	if name, at, ok := r.removedName(e); ok {
		return hiddenCall(at, hiddenRemoved, str(at, name))
	}
	if get, ok := e.(*ast.AttrGetExpr); ok {
		obj, isIdent := get.Object.(*ast.IdentExpr)
		key, isString := get.Key.(*ast.StringExpr)
		if isIdent && isString && obj.Value == "tools" && r.isGlobal("tools") {
			return hiddenCall(get, hiddenTool, obj, key)
		}
	}
	return r.expr(e)
}

func (r *rewriter) removed(name string) bool {
	_, ok := removedGlobals[name]
	return ok && r.isGlobal(name)
}

// hiddenCall calls hidden function i with args, adjusted to one value.
func hiddenCall(at ast.PositionHolder, i int, args ...ast.Expr) ast.Expr {
	fn := &ast.IdentExpr{Value: hidden[i]}
	fn.SetLine(at.Line())
	fn.SetLastLine(at.LastLine())
	call := &ast.FuncCallExpr{Func: fn, Args: args, AdjustRet: true}
	call.SetLine(at.Line())
	call.SetLastLine(at.LastLine())
	return call
}

func str(at ast.PositionHolder, s string) ast.Expr {
	e := &ast.StringExpr{Value: s}
	e.SetLine(at.Line())
	e.SetLastLine(at.LastLine())
	return e
}

// Load instantiates a compiled script in this state and returns the
// function to run and the arguments to start it with (the hidden
// functions).
func (s *State) Load(sc *Script) (*glua.LFunction, []glua.LValue) {
	L := s.L
	s.script = sc
	args := make([]glua.LValue, len(hidden))
	args[hiddenConcat] = L.NewFunction(guard("..", s.concatValues))
	args[hiddenRemoved] = L.NewFunction(s.removedError)
	args[hiddenTool] = L.NewFunction(guard("tools", s.toolField))
	args[hiddenResult] = L.NewFunction(func(L *glua.LState) int {
		s.results = make([]glua.LValue, L.GetTop())
		for i := range s.results {
			s.results[i] = L.Get(i + 1)
		}
		s.returned = true
		return 0
	})
	args[hiddenNone] = L.NewFunction(func(*glua.LState) int { return 0 })
	args[hiddenLen] = L.NewFunction(length)
	args[hiddenKey] = L.NewFunction(checkKey)
	args[hiddenForNumber] = L.NewFunction(forNumber)
	args[hiddenToolArg] = L.NewFunction(guard("tools", s.toolArg))
	args[hiddenAbsent] = L.NewFunction(func(L *glua.LState) int {
		name := L.CheckString(1)
		L.Push(L.NewFunction(func(L *glua.LState) int {
			L.RaiseError("%s is not available inside Exec: %s", name, removedGlobals[name])
			return 0
		}))
		return 1
	})
	return L.NewFunctionFromProto(sc.proto), args
}

// length is the # operator as Lua 5.1 has it: a string's bytes, a
// table's border, no metamethod.
func length(L *glua.LState) int {
	switch v := L.Get(1).(type) {
	case glua.LString:
		L.Push(number(float64(len(v))))
	case *glua.LTable:
		L.Push(number(float64(v.Len()))) // boxed once when small
	default:
		L.RaiseError("attempt to get length of a %s value", v.Type().String())
	}
	return 1
}

func (s *State) removedError(L *glua.LState) int {
	name := L.CheckString(1)
	L.RaiseError("%s is not available inside Exec: %s", name, removedGlobals[name])
	return 0
}

// concatValues is the `..` operator with the string size cap. Operands are
// folded from the right, as Lua does, so __concat metamethods see the same
// pairs they would in C Lua.
func (s *State) concatValues(L *glua.LState) int {
	n := L.GetTop()
	total, plain := 0, true
	for i := 1; i <= n; i++ {
		switch v := L.Get(i).(type) {
		case glua.LString:
			total += len(v)
		case glua.LNumber:
			total += len(numberString(float64(v)))
		default:
			plain = false
		}
	}
	if plain {
		s.checkSize(L, total)
		var b strings.Builder
		b.Grow(total)
		for i := 1; i <= n; i++ {
			b.WriteString(asString(L.Get(i)))
		}
		L.Push(glua.LString(b.String()))
		return 1
	}
	acc := L.Get(n)
	for i := n - 1; i >= 1; i-- {
		acc = s.concatPair(L, L.Get(i), acc)
	}
	L.Push(acc)
	return 1
}

func (s *State) concatPair(L *glua.LState, a, b glua.LValue) glua.LValue {
	if isStringish(a) && isStringish(b) {
		as, bs := asString(a), asString(b)
		s.checkSize(L, len(as)+len(bs))
		return glua.LString(as + bs)
	}
	for _, operand := range []glua.LValue{a, b} {
		if t, ok := operand.(*glua.LTable); ok {
			if mt, ok := t.Metatable.(*glua.LTable); ok {
				if fn := mt.RawGetString("__concat"); fn != glua.LNil {
					L.Push(fn)
					L.Push(a)
					L.Push(b)
					L.Call(2, 1)
					res := L.Get(-1)
					L.Pop(1)
					return res
				}
			}
		}
	}
	bad := a
	if isStringish(a) {
		bad = b
	}
	L.RaiseError("attempt to concatenate a %s value", bad.Type().String())
	return nil
}

func isStringish(v glua.LValue) bool {
	t := v.Type()
	return t == glua.LTString || t == glua.LTNumber
}

// Results returns the values the script returned, and whether it ran to
// its end.
func (s *State) Results() ([]glua.LValue, bool) { return s.results, s.returned }
