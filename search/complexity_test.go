package search

import (
	"cmp"
	"go/ast"
	"go/parser"
	gotoken "go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Limits on every function of the package, so that each stays readable.
const (
	maxFuncLines      = 80
	maxFuncComplexity = 30
)

// Every function (and method) in the package's non-test files is at most
// maxFuncLines long, from its func line to its closing brace, and has a
// cyclomatic complexity of at most maxFuncComplexity, counted as gocyclo
// counts it: 1, plus one per if, for, range, case clause and select comm
// clause (a default clause aside), and per && and ||, closures inside it
// included. Run with -v to see the five worst.
func TestFunctionSizeAndComplexity(t *testing.T) {
	t.Parallel()
	type fn struct {
		name              string
		lines, complexity int
	}
	var all []fn
	fset := gotoken.NewFileSet()
	paths, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range paths {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, path, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				lines := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1
				all = append(all, fn{path + ":" + funcName(fd), lines, complexity(fd)})
			}
		}
	}
	if len(all) == 0 {
		t.Fatal("no functions found")
	}
	for _, f := range all {
		if f.lines > maxFuncLines || f.complexity > maxFuncComplexity {
			t.Errorf("%s: %d lines, complexity %d (at most %d and %d)", f.name, f.lines, f.complexity, maxFuncLines, maxFuncComplexity)
		}
	}
	slices.SortFunc(all, func(a, b fn) int { return cmp.Compare(b.complexity, a.complexity) })
	for _, f := range all[:min(5, len(all))] {
		t.Logf("%-50s complexity %3d, %3d lines", f.name, f.complexity, f.lines)
	}
}

// funcName is a function's name, with its receiver's type for a method.
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	typ := fd.Recv.List[0].Type
	if star, ok := typ.(*ast.StarExpr); ok {
		typ = star.X
	}
	if id, ok := typ.(*ast.Ident); ok {
		return id.Name + "." + fd.Name.Name
	}
	return fd.Name.Name
}

// complexity is a function's cyclomatic complexity as gocyclo counts it.
func complexity(fd *ast.FuncDecl) int {
	c := 1
	ast.Inspect(fd, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt:
			c++
		case *ast.CaseClause:
			if n.List != nil {
				c++
			}
		case *ast.CommClause:
			if n.Comm != nil {
				c++
			}
		case *ast.BinaryExpr:
			if n.Op == gotoken.LAND || n.Op == gotoken.LOR {
				c++
			}
		}
		return true
	})
	return c
}
