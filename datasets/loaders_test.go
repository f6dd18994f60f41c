package datasets

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func dims(m mat.Matrix) (int, int) { return m.Dims() }

func TestOil(t *testing.T) {
	for _, tc := range []struct {
		split  string
		counts []int // nil: not checked
	}{
		{"train", []int{343, 316, 341}}, // shared/datasets/README.md, catalog §1.2
		{"test", nil},
		{"validation", nil},
	} {
		ds, err := Oil(tc.split)
		need(t, err)
		if r, c := dims(ds.Y); r != 1000 || c != 12 {
			t.Errorf("Oil(%s): Y is %d×%d, want 1000×12", tc.split, r, c)
		}
		if len(ds.Labels) != 1000 || len(ds.LabelNames) != 3 || len(ds.ColNames) != 12 {
			t.Errorf("Oil(%s): %d labels, %d label names, %d col names", tc.split, len(ds.Labels), len(ds.LabelNames), len(ds.ColNames))
		}
		counts := ds.ClassCounts()
		if tc.counts != nil && !slices.Equal(counts, tc.counts) {
			t.Errorf("Oil(%s): class counts %v, want %v", tc.split, counts, tc.counts)
		}
		t.Logf("Oil(%s): class counts %v", tc.split, counts)
	}
	if _, err := Oil("bogus"); err == nil {
		t.Error("Oil(bogus): no error")
	}
}

func TestSix(t *testing.T) {
	ds, err := Six()
	need(t, err)
	r, c := dims(ds.Y)
	if r != 64 || c != 57 {
		t.Fatalf("Six: %d×%d, want 64×57", r, c)
	}
	ink := 0
	for i := range r {
		for j := range c {
			switch ds.Y.At(i, j) {
			case 0:
				ink++
			case 255:
			default:
				t.Fatalf("Six[%d,%d] = %v, want 0 or 255", i, j, ds.Y.At(i, j))
			}
		}
	}
	// book §3.2 (Box 3.1): π = 849/3648
	if ink != 849 {
		t.Errorf("Six: %d ink pixels, want 849", ink)
	}
}

// topEigen returns the largest eigenvalue and the number of negative
// eigenvalues of B = −½ H D⁽²⁾ H.
func cmdsSpectrum(D *mat.SymDense) []float64 {
	n := D.SymmetricDim()
	B := mat.NewSymDense(n, nil)
	rowMean := make([]float64, n)
	all := 0.0
	for i := range n {
		for j := range n {
			d := D.At(i, j)
			rowMean[i] += d * d / float64(n)
		}
		all += rowMean[i] / float64(n)
	}
	for i := range n {
		for j := i; j < n; j++ {
			d := D.At(i, j)
			B.SetSym(i, j, -0.5*(d*d-rowMean[i]-rowMean[j]+all))
		}
	}
	var e mat.EigenSym
	if !e.Factorize(B, false) {
		panic("eigen")
	}
	v := e.Values(nil)
	slices.Reverse(v)
	return v
}

func TestEuropeRoads(t *testing.T) {
	for _, tc := range []struct {
		sel      CitySelection
		n        int
		top, neg float64 // book-ch3-4.md §3.2 table: top eigenvalue and most negative of B
	}{
		{Cities53, 53, 4.510e7, -7.439e6},
		{Cities48, 48, 4.070e7, -5.853e6},
		{Cities53Zero, 53, 4.538e7, -7.234e6},
		{Cities54, 54, math.NaN(), math.NaN()},
	} {
		ds, err := EuropeRoads(tc.sel)
		need(t, err)
		if ds.D.SymmetricDim() != tc.n || len(ds.RowNames) != tc.n || ds.Y != nil {
			t.Errorf("%v: D %d, %d names, want %d", tc.sel, ds.D.SymmetricDim(), len(ds.RowNames), tc.n)
			continue
		}
		if r, c := dims(ds.T); r != tc.n || c != 2 {
			t.Errorf("%v: T %d×%d", tc.sel, r, c)
		}
		for i := range tc.n {
			if ds.D.At(i, i) != 0 {
				t.Errorf("%v: D[%d,%d] = %v", tc.sel, i, i, ds.D.At(i, i))
			}
			for j := range i {
				if d := ds.D.At(i, j); math.IsNaN(d) || d < 0 {
					t.Errorf("%v: D[%s,%s] = %v", tc.sel, ds.RowNames[i], ds.RowNames[j], d)
				}
			}
		}
		if !math.IsNaN(tc.top) {
			v := cmdsSpectrum(ds.D)
			if math.Abs(v[0]-tc.top) > 0.0005*math.Abs(tc.top) || math.Abs(v[len(v)-1]-tc.neg) > 0.0005*math.Abs(tc.neg) {
				t.Errorf("%v: CMDS eigenvalues %.4g … %.4g, catalog %.4g … %.4g", tc.sel, v[0], v[len(v)-1], tc.top, tc.neg)
			}
		}
	}
	ds, err := EuropeRoads(Cities53)
	need(t, err)
	idx := map[string]int{}
	for i, n := range ds.RowNames {
		idx[n] = i
	}
	for _, name := range []string{"Athínai", "Köln", "København", "Málaga", "München", "Zürich", "Hoek van Holland", "Bratislava", "Frederikshavn", "Luxembourg", "Puttgarden", "Genève"} {
		if _, ok := idx[name]; !ok {
			t.Errorf("city %q missing from %v", name, ds.RowNames)
		}
	}
	if _, ok := idx["Hammerfest"]; ok {
		t.Error("Hammerfest in the 53-city selection")
	}
	// Imputed ferry pairs, book-ch3-4.md §3.2 variant C2.
	for _, p := range []struct {
		a, b string
		km   float64
	}{{"Oslo", "Frederikshavn", 880}, {"Stockholm", "Helsinki", 1520}, {"Tallinn", "Helsinki", 1650}, {"Tallinn", "Stockholm", 1210}} {
		if got := ds.D.At(idx[p.a], idx[p.b]); got != p.km {
			t.Errorf("%s–%s = %v km, want %v", p.a, p.b, got, p.km)
		}
	}
	// Anomaly kept as is (catalog §3.2): Zagreb–Warszawa 370 km.
	if got := ds.D.At(idx["Zagreb"], idx["Warszawa"]); got != 370 {
		t.Errorf("Zagreb–Warszawa = %v", got)
	}
	d48, err := EuropeRoads(Cities48)
	need(t, err)
	// catalog Fig 3.8: max 4810 km (Lisboa–Moskva) in the 48-city set.
	maxD := mat.Max(d48.D)
	if maxD != 4810 {
		t.Errorf("48 cities: max distance %v, want 4810", maxD)
	}
	for _, gone := range []string{"Oslo", "Helsinki", "Stockholm", "Tallinn", "Frederikshavn", "Hammerfest"} {
		if slices.Contains(d48.RowNames, gone) {
			t.Errorf("48 cities include %s", gone)
		}
	}
}

func TestUnTeX(t *testing.T) {
	for in, want := range map[string]string{
		`Ath\'inai`: "Athínai", `K\"oln`: "Köln", `K\o{}benhavn`: "København", `M\'alaga`: "Málaga",
		`M\"unchen`: "München", `Z\"urich`: "Zürich", `Hoek_van_Holland`: "Hoek van Holland",
		`Bratislav`: "Bratislava", `Geneve`: "Genève", `{\aa}s`: "ås", "\\`a\\~n\\^e": "àñê", `a\`: `a\`,
		`\'{e}t\'e`: "été", `\q`: `\q`, `\'`: `\'`,
	} {
		if got := unTeXCity(in); got != want {
			t.Errorf("unTeXCity(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestEurodist(t *testing.T) {
	ds, err := Eurodist()
	need(t, err)
	if ds.D.SymmetricDim() != 21 || len(ds.RowNames) != 21 {
		t.Fatalf("Eurodist: %d cities", ds.D.SymmetricDim())
	}
	// The file's first entry (R eurodist: Athens–Barcelona).
	if got := ds.D.At(1, 0); got != 3313 {
		t.Errorf("Athens–Barcelona = %v, want 3313", got)
	}
	v := cmdsSpectrum(ds.D)
	if v[len(v)-1] >= 0 {
		t.Errorf("eurodist: no negative CMDS eigenvalue (%v)", v[len(v)-1])
	}
	// The embedded names equal the mirror's labels file.
	if dir, _ := MirrorDir(); dir != "" {
		b, err := os.ReadFile(filepath.Join(dir, "eurodist", "eurodist_labels.txt"))
		if err == nil {
			got := strings.Split(strings.TrimSpace(string(b)), "\n")
			if !slices.Equal(got, EurodistCities) {
				t.Errorf("labels file %v, embedded %v", got, EurodistCities)
			}
		}
	}
}
