package neighbours

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/dimredbook/book/dimred/linalg"
	"gonum.org/v1/gonum/mat"
)

// GeodesicDistances and ConnectedComponents of &linalg.CSR{N: 3} (no
// RowPtr) indexed out of range; a malformed CSR now panics with the
// package's message.
func TestGraphFuncsMalformedCSR(t *testing.T) {
	for name, f := range map[string]func(g *linalg.CSR){
		"GeodesicDistances":   func(g *linalg.CSR) { GeodesicDistances(g) },
		"ConnectedComponents": func(g *linalg.CSR) { ConnectedComponents(g) },
	} {
		msg := func() (msg string) {
			defer func() {
				if r := recover(); r != nil {
					msg = fmt.Sprint(r)
				}
			}()
			f(&linalg.CSR{N: 3})
			return ""
		}()
		if !strings.HasPrefix(msg, "dimred: CSR") {
			t.Errorf("%s(&CSR{N: 3}): panic %q, want the package's CSR message", name, msg)
		}
	}
}

// GeodesicDistancesFrom gives the rows of GeodesicDistances for its
// sources, to the rounding of summing a path in the other direction (one
// Dijkstra for full and landmark Isomap).
func TestGeodesicDistancesFromRows(t *testing.T) {
	Y := mat.NewDense(30, 2, nil)
	for i := 0; i < 30; i++ {
		Y.Set(i, 0, float64(i%6)+0.1*float64(i*i%7))
		Y.Set(i, 1, float64(i/6)+0.05*float64(i%5))
	}
	g, err := KNNGraph(Y, 4, Union)
	if err != nil {
		t.Fatal(err)
	}
	all, err := GeodesicDistances(g)
	if err != nil {
		t.Fatal(err)
	}
	src := []int{7, 0, 29, 7}
	from, err := GeodesicDistancesFrom(g, src)
	if err != nil {
		t.Fatal(err)
	}
	for a, s := range src {
		for j := 0; j < 30; j++ {
			// GeodesicDistances keeps d(i, j) from the smaller-index
			// source; the other direction sums the same path backwards.
			if got, want := from.At(a, j), all.At(s, j); math.Abs(got-want) > 1e-14*want {
				t.Fatalf("d(%d, %d) = %v, want %v", s, j, got, want)
			}
		}
	}
}
