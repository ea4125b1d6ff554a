package internal_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The layering of internal/ as docs/architecture.md states it, checked over the import graph
// and the composition root's declarations (issue 25). A new package or feature is covered
// without touching this test.

const module = "portalwright/internal/"

// pkg is one package of internal/: its production files' imports and declarations.
type pkg struct {
	imports  map[string]bool // other internal packages, by path below internal/
	exported []string        // exported top-level names (funcs, types, vars, consts; methods excluded)
}

func loadPackages(t *testing.T) map[string]*pkg {
	t.Helper()
	out := map[string]*pkg{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		dir := filepath.ToSlash(filepath.Dir(path))
		p := out[dir]
		if p == nil {
			p = &pkg{imports: map[string]bool{}}
			out[dir] = p
		}
		for _, im := range f.Imports {
			v, _ := strconv.Unquote(im.Path.Value)
			if rest, ok := strings.CutPrefix(v, module); ok {
				p.imports[rest] = true
			}
		}
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.IsExported() {
					p.exported = append(p.exported, d.Name.Name)
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch s := spec.(type) {
					case *ast.TypeSpec:
						if s.Name.IsExported() {
							p.exported = append(p.exported, s.Name.Name)
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.IsExported() {
								p.exported = append(p.exported, n.Name)
							}
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Only the composition root builds the portal service: every feature gets the checked portal
// (portalaccess), the notice outlet (notice) and the editing unit (editing) instead, so no
// feature imports the portal package for its types.
func TestNoFeatureImportsThePortalPackage(t *testing.T) {
	for name, p := range loadPackages(t) {
		if p.imports["portal"] && name != "app" {
			t.Errorf("internal/%s imports internal/portal: take the checked portal (portalaccess), the notice outlet (notice) or the editing unit (editing) instead", name)
		}
	}
}

// Leaves import nothing of the product's features: the notice outlet, the checked portal and
// the error and caller types may be used by every package without a cycle.
func TestLeavesStayLeaves(t *testing.T) {
	pkgs := loadPackages(t)
	leaves := map[string][]string{
		"notice":       nil,
		"apperr":       nil,
		"caller":       nil,
		"heartbeat":    nil,
		"portalaccess": {"apperr", "httpx"},
	}
	for leaf, allowed := range leaves {
		p := pkgs[leaf]
		if p == nil {
			t.Errorf("internal/%s is gone: update this test and docs/architecture.md", leaf)
			continue
		}
		for im := range p.imports {
			if !slices.Contains(allowed, im) {
				t.Errorf("internal/%s imports internal/%s: it must stay a leaf", leaf, im)
			}
		}
	}
}

// internal/app is composition only: it exports the server's entry points and nothing a
// feature could call for a rule; features never import it.
func TestAppIsCompositionOnly(t *testing.T) {
	pkgs := loadPackages(t)
	entryPoints := []string{"App", "New", "NewLogger", "OpenStore", "PublicURL", "InitialAdminPasswordFile", "DemoDomain"}
	var extra []string
	for _, name := range pkgs["app"].exported {
		if !slices.Contains(entryPoints, name) {
			extra = append(extra, name)
		}
	}
	sort.Strings(extra)
	if len(extra) > 0 {
		t.Errorf("internal/app exports %v: a rule or type a feature needs belongs to that feature's package (or notice, portalaccess)", extra)
	}
	for name, p := range pkgs {
		if p.imports["app"] {
			t.Errorf("internal/%s imports internal/app: the composition root is imported by cmd/ only", name)
		}
	}
}

// TestOneHandlerFileName: a package's HTTP handlers live in handlers.go, or handlers_<area>.go
// when it has several areas (issue 32 item 3: five names — handler.go, api.go, *_api.go,
// handler_*.go — had grown). A package with one small route table may keep it beside its
// service; any file named like a handler file must use the one name.
func TestOneHandlerFileName(t *testing.T) {
	name := regexp.MustCompile(`^handlers(_[a-z]+)?(_test)?\.go$`)
	looksLikeHandlers := regexp.MustCompile(`^(handler|api)(_[a-z]+)?(_test)?\.go$|_api(_test)?\.go$`)
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if base := d.Name(); looksLikeHandlers.MatchString(base) && !name.MatchString(base) {
			t.Errorf("%s: name a package's handler file handlers.go (handlers_<area>.go when split)", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// maxMethods: a type past this many exported methods is two types (issue 32 item 1).
const maxMethods = 25

// TestNoTypeOverMaxMethods counts the exported methods of every type of the project's Go code
// (tests and web/, e2e/ left out) and fails on one with more than maxMethods: split it by role.
func TestNoTypeOverMaxMethods(t *testing.T) {
	counts := map[string]int{}
	fset := token.NewFileSet()
	err := filepath.WalkDir("..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); n == "node_modules" || n == "web" || n == "e2e" || (strings.HasPrefix(n, ".") && n != "." && n != "..") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || !fn.Name.IsExported() || len(fn.Recv.List) == 0 {
				continue
			}
			recv := fn.Recv.List[0].Type
			if star, ok := recv.(*ast.StarExpr); ok {
				recv = star.X
			}
			if idx, ok := recv.(*ast.IndexExpr); ok { // a generic type's methods
				recv = idx.X
			}
			if id, ok := recv.(*ast.Ident); ok {
				counts[filepath.ToSlash(filepath.Dir(path))+"."+id.Name]++
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(counts) < 50 {
		t.Fatalf("only %d types with exported methods found: the walk missed the code", len(counts))
	}
	for typ, n := range counts {
		if n > maxMethods {
			t.Errorf("%s has %d exported methods (at most %d): split it by role", strings.TrimPrefix(typ, "../"), n, maxMethods)
		}
	}
}
