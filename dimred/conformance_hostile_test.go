package dimred

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/dimredbook/book/dimred/internal/errs"
	"gonum.org/v1/gonum/mat"
)

// Hostile input from outside the package, run over the conformance table:
// what a user can pass by mistake or with awkward data. Every case must end
// in one of the contract's outcomes — a package panic ("dimred: ..." or
// mat.ErrShape) for a programmer error, an error wrapping a sentinel for bad
// data, or a finite result — never a raw runtime or gonum panic, a hang or a
// silent NaN.

// sentinels are the package's sentinel errors; an error from Fit must wrap
// one of them.
var sentinels = []error{ErrNaN, ErrOverflow, ErrTooFewPoints, ErrNotConverged,
	ErrSingular, ErrDisconnected, ErrNotDistance, ErrNotEuclidean}

func wrapsSentinel(err error) bool {
	for _, s := range sentinels {
		if errors.Is(err, s) {
			return true
		}
	}
	return false
}

// zeroCols is an n×0 data matrix (gonum's Dense cannot be empty in one
// dimension only).
type zeroCols struct{ n int }

func (z zeroCols) Dims() (int, int)    { return z.n, 0 }
func (z zeroCols) At(i, j int) float64 { panic(mat.ErrIndexOutOfRange) }
func (z zeroCols) T() mat.Matrix       { return mat.Transpose{Matrix: z} }

// checkFitOutcome fits m to Y within a time limit and fails unless the
// outcome is one the contract allows: a package panic, an error wrapping a
// sentinel, or success with finite n×q latent positions. It returns the
// panic message ("" if Fit did not panic).
func checkFitOutcome(t *testing.T, m Embedder, Y mat.Matrix, q int) string {
	t.Helper()
	var err error
	var msg string
	var X mat.Dense
	within(t, time.Minute, "Fit", func() {
		msg = panicMessage(func() {
			if err = m.Fit(Y); err == nil || errors.Is(err, ErrNotConverged) {
				m.LatentTo(&X)
			}
		})
	})
	switch {
	case msg != "":
		if msg != mat.ErrShape.Error() {
			checkPackagePanic(t, "Fit", func() { panic(msg) })
		}
	case err != nil && !wrapsSentinel(err):
		t.Errorf("error %q wraps none of the package's sentinels", err)
	case err == nil || errors.Is(err, ErrNotConverged):
		n, _ := Y.Dims()
		if r, c := X.Dims(); r != n || c != q {
			t.Errorf("LatentTo gave %d×%d, want %d×%d", r, c, n, q)
		}
		if e := errs.CheckFinite(&X, "X"); e != nil {
			t.Errorf("Fit succeeded with a non-finite result: %v", e)
		}
	}
	return msg
}

// An n×0 Y (no features): no raw panic (it was an index out of range in
// the neighbour search and a gonum zero-length panic in
// PrincipalCoordinates).
func TestConformanceNoColumns(t *testing.T) {
	for _, c := range conformanceCases {
		t.Run(c.name, func(t *testing.T) {
			checkFitOutcome(t, c.new(), zeroCols{40}, c.q)
		})
	}
}

// Few points with the method's default settings (n = q + 1, the smallest n
// for which every Q of the table is in range): an error or a finite fit,
// never a panic — the default neighbour count exceeding n is a property of
// the data, not a programmer error (MVU panicked on its default k = 6).
func TestConformanceFewPoints(t *testing.T) {
	for _, c := range conformanceCases {
		t.Run(c.name, func(t *testing.T) {
			n := c.q + 1
			m := c.new()
			// The default neighbour count (an explicit K ≥ n is
			// ErrTooFewPoints too: TestNeighbourCountTooLarge); an
			// explicit number of inducing points m needs n ≥ m.
			if k := reflect.ValueOf(m).Elem().FieldByName("K"); k.IsValid() {
				k.SetInt(0)
			}
			if f := reflect.ValueOf(m).Elem().FieldByName("Inducing"); f.IsValid() {
				n = max(n, int(f.Int()))
			}
			Y := mat.DenseCopyOf(conformanceData().Slice(0, n, 0, 5))
			if msg := checkFitOutcome(t, m, Y, c.q); msg != "" {
				t.Errorf("n = %d: Fit panicked: %s", n, msg)
			}
		})
	}
}

// Degenerate data — every row identical, half the rows duplicated, integer
// values with ties, one column 1e-300 times the rest, rank one — must end
// in a contract outcome.
func TestConformanceDegenerateData(t *testing.T) {
	identical := mat.NewDense(40, 5, nil)
	for i := 0; i < 40; i++ {
		identical.SetRow(i, []float64{1.5, -2, 3, 0.25, 7})
	}
	halfDup := conformanceData()
	for i := 20; i < 40; i++ {
		halfDup.SetRow(i, halfDup.RawRowView(i-20))
	}
	ints := conformanceData()
	for i := 0; i < 40; i++ {
		for j := 0; j < 5; j++ {
			ints.Set(i, j, math.Mod(math.Abs(math.Round(ints.At(i, j))), 3))
		}
	}
	tiny := conformanceData()
	rank1 := mat.NewDense(40, 5, nil)
	for i := 0; i < 40; i++ {
		tiny.Set(i, 1, 1e-300*tiny.At(i, 1))
		for j := 0; j < 5; j++ {
			rank1.Set(i, j, float64(i*(j+1)))
		}
	}
	data := []struct {
		name string
		Y    *mat.Dense
	}{{"identical rows", identical}, {"half duplicated", halfDup}, {"integer ties", ints},
		{"tiny column", tiny}, {"rank one", rank1}}
	for _, c := range conformanceCases {
		for _, d := range data {
			t.Run(c.name+"/"+d.name, func(t *testing.T) {
				checkFitOutcome(t, c.new(), d.Y, c.q)
			})
		}
	}
}

// A nil matrix dst is a programmer error: the package's panic, not a nil
// pointer dereference, for LatentTo, LoadingsTo and ProjectTo.
func TestConformanceNilDst(t *testing.T) {
	type loader interface{ LoadingsTo(*mat.Dense) }
	for _, c := range conformanceCases {
		t.Run(c.name, func(t *testing.T) {
			m := c.new()
			if err := m.Fit(conformanceData()); err != nil {
				t.Fatal(err)
			}
			checkPackagePanic(t, "LatentTo(nil)", func() { m.LatentTo(nil) })
			if l, ok := m.(loader); ok {
				checkPackagePanic(t, "LoadingsTo(nil)", func() { l.LoadingsTo(nil) })
			}
			if p, ok := m.(Projector); ok {
				checkPackagePanic(t, "ProjectTo(nil, …)", func() { p.ProjectTo(nil, conformanceData()) })
			}
		})
	}
}

// ProjectTo of new data: zero rows is the package's panic (gonum has no
// 0×q result), one row and rows far outside the training data (1e6, and
// 1e300 where ‖y‖² overflows) give finite positions or the package's
// panic — never NaN (GTM and DensityNetwork returned NaN for 1e300).
func TestConformanceProjectHostile(t *testing.T) {
	far := func(s float64) *mat.Dense {
		Y := mat.DenseCopyOf(conformanceData().Slice(0, 3, 0, 5))
		Y.Scale(s, Y)
		return Y
	}
	for _, c := range conformanceCases {
		t.Run(c.name, func(t *testing.T) {
			m := c.new()
			if err := m.Fit(conformanceData()); err != nil {
				t.Fatal(err)
			}
			p, ok := m.(Projector)
			if !ok {
				t.Skip("not a Projector")
			}
			checkPackagePanic(t, "ProjectTo of zero rows", func() {
				var X mat.Dense
				p.ProjectTo(&X, zeroRows{5})
			})
			for _, in := range []struct {
				name string
				Y    mat.Matrix
			}{
				{"one row", conformanceData().Slice(4, 5, 0, 5)},
				{"rows ×1e6", far(1e6)},
				{"rows ×1e300", far(1e300)},
			} {
				var X mat.Dense
				msg := panicMessage(func() { p.ProjectTo(&X, in.Y) })
				if msg != "" {
					checkPackagePanic(t, fmt.Sprintf("ProjectTo of %s", in.name), func() { panic(msg) })
					continue
				}
				if e := errs.CheckFinite(&X, "X"); e != nil {
					t.Errorf("ProjectTo of %s: %v", in.name, e)
				}
			}
		})
	}
}

// With an ε graph K is ignored (its doc), so a default K larger than n
// must not reject a small data set: Laplacian eigenmaps of 5 points joined
// by a large ε fits (it returned ErrTooFewPoints naming k = 10).
func TestLaplacianEigenmapsEpsilonIgnoresK(t *testing.T) {
	Y := mat.DenseCopyOf(conformanceData().Slice(0, 5, 0, 5))
	m := &LaplacianEigenmaps{Q: 1, Epsilon: 1e3, T: 1e3}
	if err := m.Fit(Y); err != nil {
		t.Fatalf("Fit with ε = 1e3 on 5 points: %v", err)
	}
	var X mat.Dense
	m.LatentTo(&X)
	if e := errs.CheckFinite(&X, "X"); e != nil {
		t.Error(e)
	}
}

// Every extractor whose only argument is its dst follows the one dst rule
// (doc.go): a nil matrix dst panics with the package's message (not a nil
// dereference), and a nil or empty (non-nil, length 0) slice dst is
// allocated. Found: AcyclicLLE.PrecisionTo(nil) dereferenced nil;
// MEU/AcyclicLLE/DRILL EigenvaluesTo([]float64{}) panicked.
func TestConformanceExtractorDst(t *testing.T) {
	denseT := reflect.TypeOf((*mat.Dense)(nil))
	symT := reflect.TypeOf((*mat.SymDense)(nil))
	sliceT := reflect.TypeOf([]float64(nil))
	for _, c := range conformanceCases {
		t.Run(c.name, func(t *testing.T) {
			m := c.new()
			if err := m.Fit(conformanceData()); err != nil && !errors.Is(err, ErrNotConverged) {
				t.Fatal(err)
			}
			v := reflect.ValueOf(m)
			for i := 0; i < v.NumMethod(); i++ {
				name := v.Type().Method(i).Name
				f := v.Method(i)
				ft := f.Type()
				if !strings.HasSuffix(name, "To") || ft.NumIn() != 1 {
					continue
				}
				switch ft.In(0) {
				case denseT, symT:
					checkPackagePanic(t, name+"(nil)", func() { f.Call([]reflect.Value{reflect.Zero(ft.In(0))}) })
				case sliceT:
					want := f.Call([]reflect.Value{reflect.Zero(sliceT)})[0].Len()
					var got int
					if msg := panicMessage(func() { got = f.Call([]reflect.Value{reflect.ValueOf([]float64{})})[0].Len() }); msg != "" {
						t.Errorf("%s([]float64{}) panicked: %s", name, msg)
					} else if got != want {
						t.Errorf("%s([]float64{}) has length %d, want %d", name, got, want)
					}
				}
			}
		})
	}
}
