package datasets

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// readTestPGM is a minimal binary-PGM (P5) reader for these tests only, so
// that the generator can be checked against the raw file directly.
func readTestPGM(t *testing.T) *mat.Dense {
	t.Helper()
	dir := os.Getenv("DIMRED_DATA")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared", "datasets")
	}
	b, err := os.ReadFile(filepath.Join(dir, "six", "br1561_6.3.pgm"))
	if err != nil {
		if os.Getenv("DIMRED_REQUIRE_DATA") == "1" {
			t.Fatalf("six image not found: %v", err)
		}
		t.Skipf("six image not found (set DIMRED_DATA): %v", err)
	}
	br := bufio.NewReader(bytes.NewReader(b))
	var magic string
	var w, h, maxv int
	if _, err := fmt.Fscan(br, &magic, &w, &h, &maxv); err != nil || magic != "P5" {
		t.Fatalf("bad PGM header: %v %q", err, magic)
	}
	br.ReadByte() // the single whitespace after maxval
	pix := make([]byte, w*h)
	if _, err := br.Read(pix); err != nil {
		t.Fatal(err)
	}
	m := mat.NewDense(h, w, nil)
	for i := 0; i < h; i++ {
		for j := 0; j < w; j++ {
			m.Set(i, j, float64(pix[i*w+j]))
		}
	}
	return m
}

func TestRotateImageExactAngles(t *testing.T) {
	img := mat.NewDense(2, 3, []float64{1, 2, 3, 4, 5, 6})
	for _, tc := range []struct {
		deg  float64
		want *mat.Dense
	}{
		{0, img},
		{360, img},
		// anticlockwise as displayed: the right column comes to the top
		{90, mat.NewDense(3, 2, []float64{3, 6, 2, 5, 1, 4})},
		{180, mat.NewDense(2, 3, []float64{6, 5, 4, 3, 2, 1})},
		{270, mat.NewDense(3, 2, []float64{4, 1, 5, 2, 6, 3})},
		{-90, mat.NewDense(3, 2, []float64{4, 1, 5, 2, 6, 3})},
	} {
		if got := RotateImage(img, tc.deg); !mat.Equal(got, tc.want) {
			t.Errorf("%v°: got %v want %v", tc.deg, mat.Formatted(got), mat.Formatted(tc.want))
		}
	}
}

func TestRotateImageSizes(t *testing.T) {
	// book-ch3-4.md §3.1: loose output 75×75 at 10°, 89×89 at 30°, 91×91 at 45°.
	img := mat.NewDense(64, 64, nil)
	for _, tc := range []struct {
		deg float64
		n   int
	}{{10, 75}, {30, 89}, {45, 91}} {
		r, c := RotateImage(img, tc.deg).Dims()
		if r != tc.n || c != tc.n {
			t.Errorf("%v°: %d×%d, want %d×%d", tc.deg, r, c, tc.n, tc.n)
		}
	}
}

func TestRotateImageAnticlockwise(t *testing.T) {
	// A dot right of centre moves up (to a smaller row) under a small
	// anticlockwise rotation.
	img := mat.NewDense(21, 21, nil)
	img.Set(10, 18, 1)
	out := CropCentre(RotateImage(img, 20), 21, 21)
	var bi, bj int
	best := 0.0
	for i := 0; i < 21; i++ {
		for j := 0; j < 21; j++ {
			if v := out.At(i, j); v > best {
				best, bi, bj = v, i, j
			}
		}
	}
	if bi >= 10 || bj < 15 {
		t.Errorf("dot moved to (%d,%d); want above row 10, still at the right", bi, bj)
	}
}

// TestRotatedSixesPinning checks the generator against the values pinned
// in shared/reference/book-ch3-4.md §3.1 (an independent port that
// reproduces every MAE the book prints).
func TestRotatedSixesPinning(t *testing.T) {
	raw := readTestPGM(t)
	ink := 0
	for _, v := range raw.RawMatrix().Data {
		if v == 0 {
			ink++
		}
	}
	if ink != 849 { // book §3.2: 849 ones
		t.Errorf("ink pixels %d, want 849", ink)
	}
	Y := RotatedImages(PadSix(raw), SixAngles())
	Y.Scale(1.0/255, Y)
	n, p := Y.Dims()
	if n != 360 || p != 4096 {
		t.Fatalf("Y is %d×%d", n, p)
	}
	rowSum := func(i int) float64 {
		s := 0.0
		for _, v := range Y.RawRowView(i) {
			s += v
		}
		return s
	}
	total := 0.0
	for i := 0; i < n; i++ {
		total += rowSum(i)
	}
	check := func(name string, got, want, tol float64) {
		t.Helper()
		if math.Abs(got-want) > tol {
			t.Errorf("%s = %.6f, want %.6f ± %g", name, got, want, tol)
		}
	}
	check("ΣY/255", total, 304373.60, 0.01)
	check("mass 0°", rowSum(0), 849, 1e-9)
	check("mass 90°", rowSum(90), 849, 1e-9)
	check("mass 10°", rowSum(10), 845.11, 0.005)
	check("mass 45°", rowSum(45), 864.34, 0.005)
	check("mass 349°", rowSum(349), 840.84, 0.005)

	// unbiased pixel variances, total and feature-selection errors
	vars := make([]float64, p)
	for j := 0; j < p; j++ {
		m := 0.0
		for i := 0; i < n; i++ {
			m += Y.At(i, j)
		}
		m /= float64(n)
		s := 0.0
		for i := 0; i < n; i++ {
			d := Y.At(i, j) - m
			s += d * d
		}
		vars[j] = s / float64(n-1)
	}
	tot := 0.0
	for _, v := range vars {
		tot += v
	}
	check("Σς²", tot, 439.7779, 1e-3)
	sort.Sort(sort.Reverse(sort.Float64Slice(vars)))
	for _, tc := range []struct {
		q    int
		want float64
	}{{2, 0.214507}, {10, 0.213596}, {100, 0.203427}, {1000, 0.109054}} {
		e := 0.0
		for _, v := range vars[tc.q:] {
			e += v
		}
		check(fmt.Sprintf("E_FS(%d)", tc.q), 2*e/float64(p), tc.want, 1e-6)
	}
}

func TestRotatedSixesDataset(t *testing.T) {
	d, err := RotatedSixes()
	if Skippable(err) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	n, p := d.Y.Dims()
	if n != 360 || p != 4096 {
		t.Fatalf("Y is %d×%d, want 360×4096", n, p)
	}
	if r, c := d.T.Dims(); r != 360 || c != 1 || d.T.At(359, 0) != 359 {
		t.Errorf("T is %d×%d with last angle %v", r, c, d.T.At(359, 0))
	}
	// catalog §3.1: Σ(Y)/255 = 304373.60; the 0° row is the padded,
	// inverted six itself.
	if s := mat.Sum(d.Y) / 255; math.Abs(s-304373.60) > 0.01 {
		t.Errorf("ΣY/255 = %.2f, want 304373.60", s)
	}
	six, err := Six()
	if err != nil {
		t.Fatal(err)
	}
	pad := PadSix(six.Y)
	if !mat.Equal(mat.NewDense(64, 64, d.Y.RawRowView(0)), pad) {
		t.Error("row 0 is not the padded six")
	}
}
