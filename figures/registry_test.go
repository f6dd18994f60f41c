package figures

import (
	"math"
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
