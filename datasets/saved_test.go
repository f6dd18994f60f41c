package datasets

import (
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/dimredbook/book/datasets/internal/matfile"

	"gonum.org/v1/gonum/mat"
)

// The author's saved oil fits read with the struct layout dnetWriteResult
// wrote. Expected values as SciPy 1.10's loadmat reads the same files
// (dnetInfo.beta, mapping.c(1, :), mapping.w2(1, 1:2), X_u(1, :)).
func TestOilDnetSaved(t *testing.T) {
	cases := []struct {
		k       int
		mapping string
		grid    []int
		M       int
		beta    float64
		w2      [2]float64
		xu      [2]float64
	}{
		{1, "rbf", []int{10, 10}, 100, 47.27057639, [2]float64{-0.92329655, 0.3080047}, [2]float64{-3.31763296, -2.82610542}},
		{2, "rbf", []int{20, 20}, 400, 70.77432083, [2]float64{0.20832887, 0.10493807}, [2]float64{-3.31763296, -2.82610542}},
		{3, "rbf", []int{30, 30}, 900, 103.76377751, [2]float64{2.25908737, -2.27946618}, [2]float64{-3.31763296, -2.82610542}},
		{4, "mlp", nil, 100, 90.70021233, [2]float64{0.97795423, -0.92662081}, [2]float64{0.5492896, -0.5946095}},
		{5, "mlp", nil, 400, 143.76184683, [2]float64{-0.19840684, -0.18140155}, [2]float64{0.5492896, 1.57001645}},
	}
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-8*math.Max(1, math.Abs(b)) }
	for _, c := range cases {
		s, err := OilDnetSaved(c.k)
		need(t, err)
		M, q := s.Xu.Dims()
		H, p := s.W2.Dims()
		if s.Mapping != c.mapping || !slices.Equal(s.Grid, c.grid) || M != c.M || q != 2 || H != 20 || p != 12 || len(s.B2) != 12 || s.Alpha != 1 {
			t.Errorf("%d: %s grid %v, X_u %d×%d, W2 %d×%d, α %v", c.k, s.Mapping, s.Grid, M, q, H, p, s.Alpha)
			continue
		}
		if !near(s.Beta, c.beta) || !near(s.W2.At(0, 0), c.w2[0]) || !near(s.W2.At(0, 1), c.w2[1]) ||
			!near(s.Xu.At(0, 0), c.xu[0]) || !near(s.Xu.At(0, 1), c.xu[1]) {
			t.Errorf("%d: β %v, W2[0, :2] %v %v, X_u[0] %v", c.k, s.Beta, s.W2.At(0, 0), s.W2.At(0, 1), s.Xu.RawRowView(0))
		}
		if c.mapping == "rbf" {
			// The three GTMs share their random centres; c(1, :) as
			// SciPy reads it.
			if !near(s.Centres.At(0, 0), -0.93720262) || !near(s.Centres.At(0, 1), -0.64019442) || len(s.Widths) != 20 || s.Widths[0] != 1 {
				t.Errorf("%d: c(1, :) = %v, widths %v", c.k, s.Centres.RawRowView(0), s.Widths)
			}
		} else if r, h := s.W1.Dims(); r != 2 || h != 20 || len(s.B1) != 20 {
			t.Errorf("%d: W1 %d×%d, b1 %d", c.k, r, h, len(s.B1))
		}
		// f(x) = W2ᵀh(x) + b2 at the first latent point, by hand.
		var F, Hd mat.Dense
		s.MapTo(&F, s.Xu.Slice(0, 1, 0, 2))
		s.HiddenTo(&Hd, s.Xu.Slice(0, 1, 0, 2))
		want := s.B2[3]
		for j := 0; j < H; j++ {
			want += Hd.At(0, j) * s.W2.At(j, 3)
		}
		if !near(F.At(0, 3), want) {
			t.Errorf("%d: f(x_1)_4 = %v, want %v", c.k, F.At(0, 3), want)
		}
	}
	if _, err := OilDnetSaved(6); !errors.Is(err, ErrUnknown) {
		t.Errorf("OilDnetSaved(6): %v", err)
	}
}

// A file whose variables lack the dnet layout is a parse error.
func TestParseSavedDnetLayout(t *testing.T) {
	other, err := os.ReadFile("internal/matfile/testdata/fixture_plain.mat")
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range [][]byte{nil, []byte("not a MAT-file"), other} {
		if _, err := parseSavedDnet(b); err == nil {
			t.Errorf("parseSavedDnet(%q) succeeded", b)
		}
	}
}

// The raw MAT-files as the reader sees them: the header text and the
// variables and fields dnetWriteResult saved (as SciPy 1.10's loadmat
// lists them). Files 1–2, 4–5 were written on 32-bit Linux, file 3 on
// 64-bit; each begins with a zlib-compressed element (miCOMPRESSED).
func TestSavedDnetRawLayout(t *testing.T) {
	for k, c := range map[int]struct{ header, mapping string }{
		1: {"MATLAB 5.0 MAT-file, Platform: GLNX86, Created on: Tue Sep 29 15:40:20 2009", "type nin nhidden nout actfn outfn nwts c wi w2 b2 numParams inputDim outputDim"},
		3: {"MATLAB 5.0 MAT-file, Platform: GLNXA64, Created on: Tue Sep 29 17:49:07 2009", "type nin nhidden nout actfn outfn nwts c wi w2 b2 numParams inputDim outputDim"},
		5: {"MATLAB 5.0 MAT-file, Platform: GLNX86, Created on: Wed Sep 30 09:52:44 2009", "type nin nhidden nout nwts outfn w1 b1 w2 b2 numParams hiddenDim inputDim outputDim optimiser"},
	} {
		p, err := Path("dimred_saved", fmt.Sprintf("demOilDnet%d.mat", k))
		need(t, err)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f, err := matfile.Read(b)
		if err != nil {
			t.Fatalf("%d: %v", k, err)
		}
		if f.Header != c.header || len(f.Vars) != 2 || f.Vars[0].Name != "mapping" || f.Vars[1].Name != "dnetInfo" {
			t.Errorf("%d: header %q, %d variables", k, f.Header, len(f.Vars))
			continue
		}
		if got := strings.Join(f.Vars[0].Fields, " "); got != c.mapping {
			t.Errorf("%d: mapping fields %q, want %q", k, got, c.mapping)
		}
		want := "type q d N M betaTransform beta grid X_u basisStored alpha numParams outputDim inputDim"
		if got := strings.Join(f.Vars[1].Fields, " "); got != want {
			t.Errorf("%d: dnetInfo fields %q, want %q", k, got, want)
		}
	}
}
