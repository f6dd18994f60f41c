package neighbours

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/dimredbook/book/dimred/linalg"
	"gonum.org/v1/gonum/mat"
)

// noCols is an n×0 data matrix (gonum's Dense cannot be empty in one
// dimension only).
type noCols struct{ n int }

func (z noCols) Dims() (int, int)    { return z.n, 0 }
func (z noCols) At(i, j int) float64 { panic(mat.ErrIndexOutOfRange) }
func (z noCols) T() mat.Matrix       { return mat.Transpose{Matrix: z} }

func panicText(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	f()
	return ""
}

// An n×0 Y is the package's panic, not an index out of range in the
// kd-tree.
func TestNoColumnsPanics(t *testing.T) {
	for name, f := range map[string]func(){
		"KNearest":     func() { KNearest(noCols{5}, 2) },
		"KNNGraph":     func() { KNNGraph(noCols{5}, 2, Union) },
		"EpsilonGraph": func() { EpsilonGraph(noCols{5}, 1) },
	} {
		if msg := panicText(f); !strings.HasPrefix(msg, "dimred: ") {
			t.Errorf("%s of n×0 data: panic %q, want the package's message", name, msg)
		}
	}
}

// A connected graph of finite edges whose path lengths exceed float64:
// ErrOverflow, not a silent +Inf; an edge of weight +Inf: ErrNaN.
func TestGeodesicOverflow(t *testing.T) {
	g := linalg.NewCSR(3, []int{0, 1, 1, 2}, []int{1, 0, 2, 1}, []float64{1e308, 1e308, 1e308, 1e308})
	if _, err := GeodesicDistances(g); !errors.Is(err, ErrOverflow) {
		t.Errorf("path of two 1e308 edges: err = %v, want ErrOverflow", err)
	}
	inf := linalg.NewCSR(3, []int{0, 1, 1, 2}, []int{1, 0, 2, 1}, []float64{1, 1, math.Inf(1), math.Inf(1)})
	if _, err := GeodesicDistances(inf); !errors.Is(err, ErrNaN) {
		t.Errorf("edge of weight +Inf: err = %v, want ErrNaN", err)
	}
	ok := linalg.NewCSR(3, []int{0, 1, 1, 2}, []int{1, 0, 2, 1}, []float64{1e307, 1e307, 1e307, 1e307})
	D, err := GeodesicDistances(ok)
	if err != nil || D.At(0, 2) != 2e307 {
		t.Errorf("path of two 1e307 edges: %v, %v; want 2e307", D.At(0, 2), err)
	}
}
