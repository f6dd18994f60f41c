package figures

import (
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestFileStem(t *testing.T) {
	for _, c := range []struct{ id, want string }{
		{"1.1", "fig-1.01"}, {"1.16", "fig-1.16"}, {"X4.1", "fig-X4.01"}, {"P3", "fig-P03"},
	} {
		if got := FileStem(c.id); got != c.want {
			t.Errorf("FileStem(%q) = %q, want %q", c.id, got, c.want)
		}
	}
}

func TestIDOrder(t *testing.T) {
	ids := []Entry{{ID: "1.10", Chapter: 1}, {ID: "X1.1", Chapter: 1}, {ID: "1.9", Chapter: 1}, {ID: "2.1", Chapter: 2}}
	if !idLess(ids[2], ids[0]) || !idLess(ids[0], ids[1]) || !idLess(ids[1], ids[3]) {
		t.Error("want 1.9 < 1.10 < X1.1 < 2.1")
	}
}

func TestResolve(t *testing.T) {
	f := &Figure{Numbers: []Number{Num("a", 1.0, 1.04, 0.05), Ours("b", 3)}}
	if got := f.Resolve(); got != Reproduced {
		t.Errorf("status %q, want reproduced", got)
	}
	f.Numbers = append(f.Numbers, Num("c", 1.0, 1.2, 0.05))
	if got := f.Resolve(); got != Differs {
		t.Errorf("status %q, want differs", got)
	}
	// A reference value that disagrees is a failed check too, but it is
	// never reported as agreement with the book.
	f.Numbers = []Number{Ref("r", 2, 2.5, 0.1, "closed form")}
	if got := f.Resolve(); got != Differs {
		t.Errorf("status %q with a disagreeing reference, want differs", got)
	}
	f.Numbers[0].Ours = 2
	f.ID = "X1.1"
	if got := f.Resolve(); got != Added {
		t.Errorf("added figure: status %q, want added", got)
	}
	if b, _ := Ref("r", 2, 2, 0.1, "how").MarshalJSON(); string(b) != `{"name":"r","source":"reference","cite":"how","book":null,"reference":2,"ours":2,"tol":0.1}` {
		t.Errorf("reference JSON = %s", b)
	}
	if b, _ := Book("b", 2, 2, 0.1, "Fig 1.1 caption").MarshalJSON(); string(b) != `{"name":"b","source":"book","cite":"Fig 1.1 caption","book":2,"reference":null,"ours":2,"tol":0.1}` {
		t.Errorf("book JSON = %s", b)
	}
	f.Status = NotReproducible
	if got := f.Resolve(); got != NotReproducible {
		t.Errorf("explicit status %q lost", got)
	}
	if b, err := Ours("x", math.NaN()).MarshalJSON(); err != nil || string(b) != `{"name":"x","source":"","book":null,"reference":null,"ours":null,"tol":null}` {
		t.Errorf("NaN JSON = %s, %v", b, err)
	}
}

// chapterOfID derives the chapter from a figure id: "4.6" and "X4.1" are in
// chapter 4, the spectral paper's "P3" in chapter 0.
func chapterOfID(id string) (int, bool) {
	switch {
	case strings.HasPrefix(id, "P"):
		return 0, true
	case strings.HasPrefix(id, "X"):
		id = id[1:]
	}
	head, _, ok := strings.Cut(id, ".")
	if !ok {
		return 0, false
	}
	ch, err := strconv.Atoi(head)
	return ch, err == nil
}

// The registry's ids and chapters agree, and every registered function
// builds the Figure of the id it is registered under — checked from the
// source, without rendering, so it runs under -short. A function that sets
// ID: "<literal>" must use the registered id; one that passes the id to a
// helper must mention it.
func TestRegistryIDs(t *testing.T) {
	entries := Entries()
	if len(entries) == 0 {
		t.Fatal("no figures registered")
	}
	for _, e := range entries {
		ch, ok := chapterOfID(e.ID)
		if !ok || ch != e.Chapter {
			t.Errorf("figure %s registered in chapter %d; its id says %d (ok %v)", e.ID, e.Chapter, ch, ok)
		}
	}

	fset := token.NewFileSet()
	pkgFiles, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	funcs := map[string]*ast.FuncDecl{}
	registered := map[string]string{} // function name → id
	long := map[string]string{}       // RegisterLong's function name → its long computation's
	for _, name := range pkgFiles {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil {
				funcs[fd.Name.Name] = fd
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			reg, ok := call.Fun.(*ast.Ident)
			if !ok || !(reg.Name == "Register" && len(call.Args) == 3 || reg.Name == "RegisterLong" && len(call.Args) == 4) {
				return true
			}
			lit, ok1 := call.Args[0].(*ast.BasicLit)
			fn, ok2 := call.Args[2].(*ast.Ident)
			if !ok1 || !ok2 || lit.Kind != token.STRING {
				t.Errorf("%s: %s needs a literal id and a function name", fset.Position(call.Pos()), reg.Name)
				return true
			}
			id, _ := strconv.Unquote(lit.Value)
			registered[fn.Name] = id
			if reg.Name == "RegisterLong" {
				lf, ok := call.Args[3].(*ast.Ident)
				if !ok {
					t.Errorf("%s: RegisterLong needs the long computation's function name", fset.Position(call.Pos()))
					return true
				}
				long[fn.Name] = lf.Name
			}
			return true
		})
	}
	if len(registered) != len(entries) {
		t.Errorf("%d Register calls in the source, %d entries", len(registered), len(entries))
	}
	for fn, id := range registered {
		fd := funcs[fn]
		if fd == nil {
			t.Errorf("figure %s: function %s not found", id, fn)
			continue
		}
		// The id may be built by a helper the registered function calls
		// (fig6_8, MagnificationFigure): follow calls to the package's own
		// functions.
		mentioned, idField := false, ""
		seen := map[string]bool{}
		var visit func(fd *ast.FuncDecl)
		visit = func(fd *ast.FuncDecl) {
			if fd == nil || seen[fd.Name.Name] {
				return
			}
			seen[fd.Name.Name] = true
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				switch x := n.(type) {
				case *ast.KeyValueExpr:
					if k, ok := x.Key.(*ast.Ident); ok && k.Name == "ID" {
						if v, ok := x.Value.(*ast.BasicLit); ok && v.Kind == token.STRING {
							idField, _ = strconv.Unquote(v.Value)
						}
					}
				case *ast.BasicLit:
					if v, err := strconv.Unquote(x.Value); err == nil && x.Kind == token.STRING && v == id {
						mentioned = true
					}
				case *ast.CallExpr:
					if callee, ok := x.Fun.(*ast.Ident); ok {
						visit(funcs[callee.Name])
					}
				}
				return true
			})
		}
		visit(fd)
		if lf, ok := long[fn]; ok {
			// the exported function passes its long computation to
			// inNotebook: that builds the Figure
			visit(funcs[lf])
		}
		switch {
		case idField != "" && idField != id:
			t.Errorf("figure %s: %s builds a Figure with ID %q", id, fn, idField)
		case !mentioned:
			t.Errorf("figure %s: %s never mentions its id", id, fn)
		}
	}
}

func TestEntryFunc(t *testing.T) {
	e, ok := Lookup("1.1")
	if !ok {
		t.Fatal("figure 1.1 not registered")
	}
	if got, want := e.Func(), "github.com/dimredbook/book/figures.Fig1_1EggMass1D"; got != want {
		t.Errorf("Func() = %q, want %q", got, want)
	}
}

func TestSummary(t *testing.T) {
	rows := []ReportRow{
		{ID: "1.1", Kind: "book", Status: Reproduced},
		{ID: "1.2", Kind: "book", Status: Redrawn},
		{ID: "1.3", Kind: "book", Status: Reproduced},
		{ID: "X1.1", Kind: "added", Status: Added},
		{ID: "X1.2", Kind: "added", Status: Erratum},
	}
	if got, want := Summary(rows), "3 book figures: 2 reproduced, 1 redrawn; 2 added figures: 1 added, 1 erratum"; got != want {
		t.Errorf("Summary = %q, want %q", got, want)
	}
}

// checkSources fails on a number compared with a value that does not say
// where it comes from: a book number must cite the figure, section,
// equation or box; a reference value must say how it was computed.
func checkSources(t *testing.T, f *Figure) {
	t.Helper()
	for _, n := range f.Numbers {
		switch {
		case math.IsNaN(n.Want()):
		case n.Source == FromNone:
			t.Errorf("figure %s, %q: a comparison value without a source (use Book or Ref)", f.ID, n.Name)
		case n.Cite == "":
			t.Errorf("figure %s, %q: a %s value without a citation (Book: where the draft prints it; Ref: how it was computed)", f.ID, n.Name, n.Source)
		}
		if n.Source == FromBook && IsAdded(f.ID) && f.Resolve() == Reproduced {
			t.Errorf("figure %s is beyond the book but reported as reproduced", f.ID)
		}
	}
}

// The figures added beyond the book are numbered without gaps in each
// chapter: X5.1 … X5.m, never X5.6 followed by X5.10 (a reader looking for
// X5.7 finds nothing).
func TestAddedIDsContiguous(t *testing.T) {
	nums := map[int][]int{}
	for _, e := range Entries() {
		if !IsAdded(e.ID) {
			continue
		}
		_, tail, ok := strings.Cut(e.ID, ".")
		n, err := strconv.Atoi(tail)
		if !ok || err != nil {
			t.Errorf("added figure %s: id is not X<chapter>.<number>", e.ID)
			continue
		}
		nums[e.Chapter] = append(nums[e.Chapter], n)
	}
	for ch, ns := range nums {
		seen := map[int]bool{}
		for _, n := range ns {
			seen[n] = true
		}
		for want := 1; want <= len(ns); want++ {
			if !seen[want] {
				t.Errorf("chapter %d: added figures %v skip X%d.%d", ch, ns, ch, want)
			}
		}
	}
}
