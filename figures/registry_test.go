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
	f.Status = NotReproducible
	if got := f.Resolve(); got != NotReproducible {
		t.Errorf("explicit status %q lost", got)
	}
	if b, err := Ours("x", math.NaN()).MarshalJSON(); err != nil || string(b) != `{"name":"x","book":null,"ours":null,"tol":null}` {
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
