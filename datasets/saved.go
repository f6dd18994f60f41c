package datasets

import (
	"fmt"
	"math"

	"github.com/dimredbook/book/datasets/internal/matfile"

	"gonum.org/v1/gonum/mat"
)

// SavedDnet is one of the fits the book's author saved with his toolbox
// (lawrennd/dimred, matlab/demOilDnet1–5.mat, written by dnetWriteResult
// in 2009): the models behind Figs 6.10 (GTM, experiments 1–3) and 6.8
// (density network, experiments 4–5) on the oil training data.
//
// The model (the toolbox's dnet, book §6.4–6.5) maps latent points x to
// data space through a one-hidden-layer network,
//
//	f(x) = W2ᵀ h(x) + b2,   h(x) = [h_1(x) … h_H(x)]ᵀ,
//
// with Gaussian RBF units h_j(x) = exp(−‖x − c_j‖²/(2 s_j)) (Netlab's
// rbf with "gaussian" activations, s_j the squared widths) for the GTM and
// tanh units h(x) = tanh(W1ᵀx + b1) (Netlab's mlp) for the density network.
// p(y) is the uniform mixture over the M latent points X_u of
// N(y | f(x_k), β⁻¹I): a regular grid for the GTM, samples from N(0, I) for
// the density network. α is the precision of the Gaussian prior on the
// output weights.
type SavedDnet struct {
	Name    string     // file stem, e.g. "demOilDnet1"
	Mapping string     // "rbf" (GTM) or "mlp" (density network)
	Grid    []int      // GTM: grid points per latent dimension, e.g. [10 10]; nil for sampled latent points
	Xu      *mat.Dense // M×q latent points X_u (grid or samples)
	Beta    float64    // β, noise precision
	Alpha   float64    // α, prior precision of the output weights

	Centres *mat.Dense // rbf: H×q centres c_j
	Widths  []float64  // rbf: the H squared widths s_j
	W1      *mat.Dense // mlp: q×H input weights
	B1      []float64  // mlp: H hidden biases
	W2      *mat.Dense // H×p output weights
	B2      []float64  // p output biases

	Source string // the file's canonical URL
}

// OilDnetSaved reads the author's saved fit of experiment k = 1 … 5 of the
// oil data (demOilDnet<k>.mat): 1–3 the GTM with a 10×10, 20×20, 30×30
// grid and 20 RBFs of random centres (Fig 6.10), 4–5 the density network
// with 100 and 400 latent samples and 20 tanh units (Fig 6.8). The files
// are resolved like every other data file (DIMRED_DATA, cache, download)
// and checked against their SHA-256. Errors wrap ErrNotAvailable,
// ErrChecksum or, for a file that does not hold the expected struct
// layout, ErrParse.
func OilDnetSaved(k int) (*SavedDnet, error) {
	if k < 1 || k > 5 {
		return nil, fmt.Errorf("%w: OilDnetSaved(%d): the saved oil fits are experiments 1 to 5", ErrUnknown, k)
	}
	name := fmt.Sprintf("demOilDnet%d", k)
	b, err := readFile("dimred_saved", name+".mat")
	if err != nil {
		return nil, err
	}
	s, err := parseSavedDnet(b)
	if err != nil {
		return nil, fmt.Errorf("%w: dimred_saved/%s.mat: %w", ErrParse, name, err)
	}
	s.Name = name
	s.Source = sources("dimred_saved", name+".mat")
	return s, nil
}

// parseSavedDnet reads the two variables dnetWriteResult saves: mapping
// (the Netlab network) and dnetInfo (the rest of the model).
func parseSavedDnet(b []byte) (*SavedDnet, error) {
	f, err := matfile.Read(b)
	if err != nil {
		return nil, err
	}
	mp, err := f.Var("mapping")
	if err != nil {
		return nil, err
	}
	info, err := f.Var("dnetInfo")
	if err != nil {
		return nil, err
	}
	g := getter{}
	s := &SavedDnet{
		Mapping: g.str(mp, "type"),
		Xu:      g.matrix(info, "X_u", -1, -1),
		Beta:    g.scalar(info, "beta"),
		Alpha:   g.scalar(info, "alpha"),
	}
	if bt := g.str(info, "betaTransform"); g.err == nil && bt != "exp" {
		return nil, fmt.Errorf("dnetInfo.betaTransform %q, want \"exp\"", bt)
	}
	if g.err != nil {
		return nil, g.err
	}
	M, q := s.Xu.Dims()
	if grid := g.vector(info, "grid", -1); len(grid) > 0 {
		prod := 1
		for _, v := range grid {
			s.Grid = append(s.Grid, int(v))
			prod *= int(v)
		}
		if prod != M {
			return nil, fmt.Errorf("grid %v for %d latent points", s.Grid, M)
		}
	}
	H := int(g.scalar(mp, "nhidden"))
	p := int(g.scalar(mp, "nout"))
	if nin := int(g.scalar(mp, "nin")); g.err == nil && nin != q {
		return nil, fmt.Errorf("mapping.nin = %d for %d-dimensional latent points", nin, q)
	}
	if g.err != nil {
		return nil, g.err
	}
	switch s.Mapping {
	case "rbf":
		if act := g.str(mp, "actfn"); g.err == nil && act != "gaussian" {
			return nil, fmt.Errorf("rbf activation %q, want \"gaussian\"", act)
		}
		s.Centres = g.matrix(mp, "c", H, q)
		s.Widths = g.vector(mp, "wi", H)
	case "mlp":
		s.W1 = g.matrix(mp, "w1", q, H)
		s.B1 = g.vector(mp, "b1", H)
	default:
		return nil, fmt.Errorf("mapping.type %q, want \"rbf\" or \"mlp\"", s.Mapping)
	}
	if out := g.str(mp, "outfn"); g.err == nil && out != "linear" {
		return nil, fmt.Errorf("output function %q, want \"linear\"", out)
	}
	s.W2 = g.matrix(mp, "w2", H, p)
	s.B2 = g.vector(mp, "b2", p)
	if g.err != nil {
		return nil, g.err
	}
	if !(s.Beta > 0) || math.IsInf(s.Beta, 0) || !(s.Alpha >= 0) {
		return nil, fmt.Errorf("β = %v, α = %v", s.Beta, s.Alpha)
	}
	return s, nil
}

// getter reads fields of 1×1 structs and keeps the first error.
type getter struct{ err error }

func (g *getter) field(s *matfile.Array, name string) *matfile.Array {
	if g.err != nil {
		return nil
	}
	a, err := s.Field(name)
	if err != nil {
		g.err = err
	}
	return a
}

func (g *getter) str(s *matfile.Array, name string) string {
	a := g.field(s, name)
	if a == nil {
		return ""
	}
	if a.Class != matfile.Char {
		g.err = fmt.Errorf("%s.%s is %v, want char", s.Name, name, a.Class)
		return ""
	}
	return a.String()
}

func (g *getter) scalar(s *matfile.Array, name string) float64 {
	a := g.field(s, name)
	if a == nil {
		return math.NaN()
	}
	v, err := a.Scalar()
	if err != nil {
		g.err = fmt.Errorf("%s.%s: %w", s.Name, name, err)
	}
	return v
}

// matrix reads an r×c real matrix (−1: any size), with finite entries.
func (g *getter) matrix(s *matfile.Array, name string, r, c int) *mat.Dense {
	a := g.field(s, name)
	if a == nil {
		return nil
	}
	d, rr, cc, err := a.Matrix()
	switch {
	case err != nil:
		g.err = fmt.Errorf("%s.%s: %w", s.Name, name, err)
	case rr == 0 || cc == 0 || (r >= 0 && rr != r) || (c >= 0 && cc != c):
		g.err = fmt.Errorf("%s.%s is %d×%d, want %d×%d", s.Name, name, rr, cc, r, c)
	case !allFinite(d):
		g.err = fmt.Errorf("%s.%s has NaN or Inf entries", s.Name, name)
	}
	if g.err != nil {
		return nil
	}
	return mat.NewDense(rr, cc, d)
}

// vector reads a real row or column vector of length n (−1: any length,
// empty allowed).
func (g *getter) vector(s *matfile.Array, name string, n int) []float64 {
	a := g.field(s, name)
	if a == nil {
		return nil
	}
	if !a.Class.IsNumeric() || len(a.Dims) != 2 || (a.Dims[0] > 1 && a.Dims[1] > 1) || a.Imag != nil {
		g.err = fmt.Errorf("%s.%s is a %v %v array, want a real vector", s.Name, name, a.Class, a.Dims)
		return nil
	}
	if (n >= 0 && len(a.Real) != n) || !allFinite(a.Real) {
		g.err = fmt.Errorf("%s.%s has %d entries (want %d), or NaN/Inf", s.Name, name, len(a.Real), n)
		return nil
	}
	return append([]float64(nil), a.Real...)
}

func allFinite(v []float64) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// HiddenTo stores the hidden-unit activations h(x) (r×H) of the latent
// points X (r×q) in dst: exp(−‖x − c_j‖²/(2 s_j)) for an rbf mapping,
// tanh(W1ᵀx + b1) for an mlp. An empty dst is resized; a wrong shape
// panics.
func (s *SavedDnet) HiddenTo(dst *mat.Dense, X mat.Matrix) {
	r, q := X.Dims()
	H, _ := s.W2.Dims()
	if _, qq := s.Xu.Dims(); q != qq {
		panic(mat.ErrShape)
	}
	if dst.IsEmpty() {
		dst.ReuseAs(r, H)
	} else if dr, dc := dst.Dims(); dr != r || dc != H {
		panic(mat.ErrShape)
	}
	x := make([]float64, q)
	for i := 0; i < r; i++ {
		mat.Row(x, i, X)
		for j := 0; j < H; j++ {
			var v float64
			if s.Mapping == "rbf" {
				var d2 float64
				for l := 0; l < q; l++ {
					t := x[l] - s.Centres.At(j, l)
					d2 += t * t
				}
				v = math.Exp(-d2 / (2 * s.Widths[j]))
			} else {
				a := s.B1[j]
				for l := 0; l < q; l++ {
					a += x[l] * s.W1.At(l, j)
				}
				v = math.Tanh(a)
			}
			dst.Set(i, j, v)
		}
	}
}

// MapTo stores f(x) = W2ᵀh(x) + b2 (r×p) of the latent points X (r×q) in
// dst. An empty dst is resized; a wrong shape panics.
func (s *SavedDnet) MapTo(dst *mat.Dense, X mat.Matrix) {
	r, _ := X.Dims()
	_, p := s.W2.Dims()
	if dst.IsEmpty() {
		dst.ReuseAs(r, p)
	} else if dr, dc := dst.Dims(); dr != r || dc != p {
		panic(mat.ErrShape)
	}
	var Hd mat.Dense
	s.HiddenTo(&Hd, X)
	dst.Mul(&Hd, s.W2)
	for i := 0; i < r; i++ {
		row := dst.RawRowView(i)
		for j := range row {
			row[j] += s.B2[j]
		}
	}
}
