package dimred

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/dimredbook/book/dimred/internal/dense"
	"github.com/dimredbook/book/dimred/internal/errs"
	"github.com/dimredbook/book/dimred/internal/parallel"
	"github.com/dimredbook/book/dimred/linalg"
	"github.com/dimredbook/book/dimred/neighbours"
	"github.com/dimredbook/book/dimred/progress"

	"gonum.org/v1/gonum/mat"
)

// UMAPInit selects the starting embedding of UMAP.
type UMAPInit int

const (
	// UMAPInitSpectral starts from the Laplacian eigenmap (book §5.4) of the
	// fuzzy graph: the eigenvectors of its normalised Laplacian with the q
	// smallest non-zero eigenvalues, scaled to a spread of 10, as
	// umap-learn does. A disconnected graph has no such start; the PCA start
	// is used instead (SpectralFallback reports it). The default.
	UMAPInitSpectral UMAPInit = iota
	// UMAPInitPCA starts from the first q principal components scaled to a
	// spread of 10.
	UMAPInitPCA
)

// UMAP is uniform manifold approximation and projection (McInnes, Healy &
// Melville 2018, "UMAP: Uniform manifold approximation and projection for
// dimension reduction"). Like TSNE it is beyond the book, and made of the
// book's parts:
//
//   - a neighbourhood graph (chapter 5) on each point's k = NNeighbors
//     nearest neighbours, with edge weights w_{j|i} = exp(−(d_ij − ρ_i)/σ_i),
//     ρ_i the distance to the nearest neighbour and σ_i set so that
//     Σ_j w_{j|i} = log₂ k — a local, per-point bandwidth — made symmetric
//     by the fuzzy union w_ij = w_{j|i} + w_{i|j} − w_{j|i} w_{i|j};
//   - the Laplacian eigenmap of that graph as the starting point (§5.4);
//   - a probabilistic model of the embedding's edges, an edge of weight
//     v_ij = (1 + a‖x_i − x_j‖^{2b})⁻¹ (a and b fitted so that v falls from
//     1 at MinDist as exp(−(d − MinDist)/Spread)), fitted by minimising the
//     cross-entropy Σ w log(w/v) + (1 − w) log((1 − w)/(1 − v)) with
//     stochastic gradient steps: attraction along each edge, sampled in
//     proportion to its weight, and repulsion from NegativeSampleRate
//     random points per attraction.
//
// The optimisation differs from umap-learn in one way, for
// reproducibility: within an epoch every point moves against the positions
// the others had at the start of the epoch (each edge is seen from both
// ends, so every point still feels every edge), and each point's negative
// samples come from its own random stream seeded by (Src, point, epoch).
// umap-learn updates shared positions from many threads as it goes, so a
// fixed seed does not fix its result; here, with a fixed Src (nil means a
// fixed seed) the embedding is bit-identical run to run and on one thread or
// many, and on every amd64 processor in the default (pure-Go) build: the
// spectral start's Lanczos solver sums its basis products in slabs fixed
// by n alone, on kernels whose plain-Go versions give the vector kernels'
// bits (linalg's TestEigenSymGoldenBits and TestUMAPGoldenBits run again
// with AVX, AVX2 and FMA turned off). The openblas build hands large
// products to OpenBLAS, whose rounding depends on the processor.
//
// Cost. The neighbour search is exact (blocked distances through the
// package's matrix products, O(n²p)), where umap-learn uses approximate
// NN-descent; the epochs cost O(n·k·NegativeSampleRate) each, most of it
// the powers d^{2b} of the edge model (computed by a table-driven kernel,
// umapPow, to 2e-14). On 50 000 clustered points of 50 features on one
// thread (scripts/bench's set), the search takes 3.7 s of a 23 s fit
// (16 %, on the fused distance kernel of package neighbours) and the
// epochs most of the rest. A thread-independent NN-descent (each point
// pulling candidates from its neighbours' and reverse neighbours' lists of
// the previous round, random start) was measured on those data and not
// adopted: four rounds took 2.4 times the exact search of the time (before
// the fused kernel made it 3.6 times faster) and found 72 % of the true
// neighbours, ten rounds 3.9 times and 83 % (50 independent dimensions per
// cluster defeat its neighbours-of-neighbours premise).
//
// ProjectTo embeds new points as umap-learn's transform does: each new
// point's fuzzy weights to its k nearest training points, a start at their
// weighted mean position, and a third of the epochs of attraction to those
// neighbours and repulsion from random training points, with the training
// embedding fixed.
type UMAP struct {
	Q          int // q, latent dimension; 0 means 2
	NNeighbors int // k, neighbours per point; 0 means 15
	// MinDist is the smallest distance between embedded points (the curve's
	// flat top); 0 means 0.1. Spread is the scale beyond it; 0 means 1.
	MinDist, Spread float64
	// NEpochs is the number of optimisation epochs; 0 means 500 for
	// n ≤ 10 000 and 200 above (umap-learn's defaults).
	NEpochs int
	// LearningRate is the initial step α, decreasing linearly to 0; 0 means 1.
	LearningRate float64
	// NegativeSampleRate is the number of repulsive samples per attractive
	// one; 0 means 5.
	NegativeSampleRate int
	Init               UMAPInit
	// Src seeds the negative sampling; nil means a fixed seed.
	Src rand.Source
	// Monitor, if not nil, is called every 10 epochs and at the end with
	// the epoch; returning true stops the fit. The objective argument is
	// the current learning rate α (the cross-entropy is not evaluated).
	Monitor func(epoch int, alpha float64) bool

	fitted *umapFit
}

type umapFit struct {
	x, y        *mat.Dense
	exp         int // the training data were scaled by 2^-exp (see FitContext)
	k           int
	a, b        float64
	epochs      int
	lr          float64
	negRate     int
	seed        uint64
	spectralOff bool
}

var _ Projector = (*UMAP)(nil)

// UMAPCurve returns the a and b of the embedding's edge model
// (1 + a d^{2b})⁻¹ that best fit, in least squares on 300 points of
// [0, 3·spread], the curve equal to 1 below minDist and
// exp(−(d − minDist)/spread) above (umap-learn's find_ab_params; for
// minDist 0.1, spread 1: a ≈ 1.577, b ≈ 0.895). Gauss–Newton with
// Levenberg damping from a = 1, b = 1, in units of spread: the curve
// depends on d/spread alone, so b is that of (minDist/spread, 1) and a
// that one's times spread^{−2b} (fitted in d itself, the damped steps from
// a = 1 stalled far from a ≈ spread^{−2b} at spread 10⁶ or 10⁻⁶ and
// beyond).
func UMAPCurve(minDist, spread float64) (a, b float64) {
	if spread != 1 {
		a, b = UMAPCurve(minDist/spread, 1)
		return a * detPow(spread, -2*b), b
	}
	const m = 300
	xs := make([]float64, m)
	ys := make([]float64, m)
	for t := range xs {
		x := 3 * spread * float64(t) / (m - 1)
		xs[t] = x
		if x < minDist {
			ys[t] = 1
		} else {
			ys[t] = detExp(-(x - minDist) / spread)
		}
	}
	sse := func(a, b float64) float64 {
		s := 0.0
		for t, x := range xs {
			r := 1/(1+a*detPow(x, 2*b)) - ys[t]
			s += r * r
		}
		return s
	}
	a, b = 1, 1
	lambda := 1e-3
	cur := sse(a, b)
	for it := 0; it < 200; it++ {
		// Normal equations of the linearised residuals.
		var jaa, jab, jbb, ga, gb float64
		for t, x := range xs {
			if x == 0 {
				continue
			}
			p := detPow(x, 2*b)
			f := 1 / (1 + a*p)
			r := f - ys[t]
			da := -p * f * f
			db := -a * p * 2 * math.Log(x) * f * f
			jaa += da * da
			jab += da * db
			jbb += db * db
			ga += da * r
			gb += db * r
		}
		for {
			A, B, C := jaa*(1+lambda), jab, jbb*(1+lambda)
			det := A*C - B*B
			sa := -(C*ga - B*gb) / det
			sb := -(A*gb - B*ga) / det
			na, nb := a+sa, b+sb
			if na > 0 && nb > 0 {
				if s := sse(na, nb); s < cur {
					conv := cur-s < 1e-15*max(cur, 1e-300)
					a, b, cur = na, nb, s
					lambda /= 10
					if conv {
						return a, b
					}
					break
				}
			}
			lambda *= 10
			if lambda > 1e12 {
				return a, b
			}
		}
	}
	return a, b
}

func (m *UMAP) settings(n int) (q, k int, minDist, spread float64, epochs int, lr float64, neg int) {
	q = m.Q
	if q == 0 {
		q = 2
	}
	k = m.NNeighbors
	if k == 0 {
		k = 15
	}
	if q < 0 || k < 0 || m.NEpochs < 0 || m.NegativeSampleRate < 0 {
		panic(fmt.Sprintf("dimred: UMAP: Q = %d, NNeighbors = %d, NEpochs = %d, NegativeSampleRate = %d", m.Q, m.NNeighbors, m.NEpochs, m.NegativeSampleRate))
	}
	minDist, spread = m.MinDist, m.Spread
	if minDist == 0 {
		minDist = 0.1
	}
	if spread == 0 {
		spread = 1
	}
	if !(minDist >= 0) || !(spread > 0) || math.IsInf(minDist, 0) || math.IsInf(spread, 0) || minDist > spread {
		// The values compared, defaults filled in: Spread = 1e-300 fails
		// against the default MinDist 0.1, not against MinDist = 0.
		panic(fmt.Sprintf("dimred: UMAP: MinDist = %v, Spread = %v after defaults (want 0 ≤ MinDist ≤ Spread)", minDist, spread))
	}
	epochs = m.NEpochs
	if epochs == 0 {
		epochs = 500
		if n > 10000 {
			epochs = 200
		}
	}
	lr = m.LearningRate
	if lr == 0 {
		lr = 1
	}
	if !(lr > 0) || math.IsInf(lr, 0) {
		panic(fmt.Sprintf("dimred: UMAP: LearningRate = %v", m.LearningRate))
	}
	neg = m.NegativeSampleRate
	if neg == 0 {
		neg = 5
	}
	return
}

// smoothKNN returns umap-learn's per-point ρ_i and σ_i and the directed
// weights w_{j|i} = exp(−max(0, d_ij − ρ_i)/σ_i) for the n·k neighbour
// distances d (not squared), σ_i by bisection to Σ_j w_{j|i} = log₂ k
// (64 halvings, 1e-5), at least 10⁻³ of the mean neighbour distance.
func smoothKNN(d []float64, n, k int) []float64 {
	w := make([]float64, n*k)
	target := math.Log2(float64(k))
	meanAll := 0.0
	for _, v := range d {
		meanAll += v
	}
	meanAll /= float64(len(d))
	parallel.ForWork(n, n*k*64, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			di := d[i*k : (i+1)*k]
			rho := 0.0
			for _, v := range di {
				if v > 0 {
					rho = v
					break
				}
			}
			lo, hi, sigma := 0.0, math.Inf(1), 1.0
			for it := 0; it < 64; it++ {
				s := 0.0
				for _, v := range di {
					if e := v - rho; e > 0 {
						s += detExp(-e / sigma)
					} else {
						s++
					}
				}
				if math.Abs(s-target) < 1e-5 {
					break
				}
				if s > target {
					hi = sigma
					sigma = (lo + hi) / 2
				} else {
					lo = sigma
					if math.IsInf(hi, 1) {
						sigma *= 2
					} else {
						sigma = (lo + hi) / 2
					}
				}
			}
			mean := 0.0
			for _, v := range di {
				mean += v
			}
			mean /= float64(k)
			floor := 1e-3 * mean
			if rho == 0 {
				floor = 1e-3 * meanAll
			}
			sigma = max(sigma, floor)
			for t, v := range di {
				if e := v - rho; e > 0 {
					w[i*k+t] = detExp(-e / sigma)
				} else {
					w[i*k+t] = 1
				}
			}
		}
	})
	return w
}

// fuzzyUnion returns the symmetric graph w_ij = a + b − ab of the directed
// weights a = w_{j|i}, b = w_{i|j} (zero where an edge is absent) as CSR.
func fuzzyUnion(idx []int, w []float64, n, k int) *linalg.CSR {
	type entry struct {
		i, j int
		v    float64
		rev  bool
	}
	es := make([]entry, 0, 2*n*k)
	for i := 0; i < n; i++ {
		for t := 0; t < k; t++ {
			j := idx[i*k+t]
			es = append(es, entry{i, j, w[i*k+t], false}, entry{j, i, w[i*k+t], true})
		}
	}
	sort.Slice(es, func(a, b int) bool {
		if es[a].i != es[b].i {
			return es[a].i < es[b].i
		}
		if es[a].j != es[b].j {
			return es[a].j < es[b].j
		}
		return !es[a].rev && es[b].rev
	})
	g := &linalg.CSR{N: n, RowPtr: make([]int, n+1)}
	for t := 0; t < len(es); {
		u := t
		var fwd, bwd float64
		for u < len(es) && es[u].i == es[t].i && es[u].j == es[t].j {
			if es[u].rev {
				bwd = es[u].v
			} else {
				fwd = es[u].v
			}
			u++
		}
		v := fwd + bwd - fwd*bwd
		if v > 0 {
			g.Col = append(g.Col, es[t].j)
			g.Val = append(g.Val, v)
			g.RowPtr[es[t].i+1]++
		}
		t = u
	}
	for i := 0; i < n; i++ {
		g.RowPtr[i+1] += g.RowPtr[i]
	}
	return g
}

// Fit embeds the rows of Y (n×p); it needs n > NNeighbors.
func (m *UMAP) Fit(Y mat.Matrix) error { return m.FitContext(context.Background(), Y) }

// FitContext is Fit under ctx: cancelling ctx stops the fit promptly with an
// error wrapping ctx.Err() and leaves the model unfitted; the fit reports
// its phases to ctx's progress.Reporter (see the package doc,
// "Cancellation and progress").
func (m *UMAP) FitContext(ctx context.Context, Y mat.Matrix) (err error) {
	defer discardOnError(&err, &m.fitted)
	m.fitted = nil
	n, _ := Y.Dims()
	q, k, minDist, spread, epochs, lr, neg := m.settings(n)
	y, err := checkEmbedData("UMAP", Y, 3)
	if err != nil {
		return err
	}
	// The bandwidth search (umap-learn's: σ from 1, 64 doublings or
	// halvings) cannot reach the σ of neighbour distances far from 1, so
	// data whose largest entry lies outside [2^-32, 2^32) were embedded
	// from a wrong graph (Y·2^-100 differed from Y by 8.7). Such data are
	// scaled by a power of two to a largest entry in [½, 1) first (exact),
	// and so is new data in ProjectTo; data in that range are unchanged.
	exp := 0
	if e := maxExponent(y); e < -32 || e > 32 {
		exp, y = e, ldexpDense(y, -e)
	}
	if k >= n {
		return fmt.Errorf("%w: UMAP with NNeighbors %d needs more than %d points, got %d", ErrTooFewPoints, k, k, n)
	}
	idx, d2, err := exactNeighboursContext(ctx, y, k)
	if err != nil {
		return errs.Wrap(err, "UMAP")
	}
	d := make([]float64, len(d2))
	for t, v := range d2 {
		d[t] = math.Sqrt(v)
	}
	g := fuzzyUnion(idx, smoothKNN(d, n, k), n, k)
	a, b := UMAPCurve(minDist, spread)
	if !(a > 0) || math.IsInf(a, 0) {
		// a is of order Spread^(−2b): beyond about 10^±80 it does not exist
		// in floating point (a = +Inf made every step NaN, a = 0 removed
		// the attraction).
		panic(fmt.Sprintf("dimred: UMAP: Spread = %v gives the edge model's a = %v (b = %.3g): not a positive finite number", spread, a, b))
	}

	seed := uint64(0x5eed)
	if m.Src != nil {
		seed = rand.New(m.Src).Uint64()
	}
	fit := &umapFit{y: y, exp: exp, k: k, a: a, b: b, epochs: epochs, lr: lr, negRate: neg, seed: seed}
	var x *mat.Dense
	if m.Init == UMAPInitSpectral {
		x, err = umapSpectral(ctx, g, q)
		if errors.Is(err, ErrDisconnected) {
			fit.spectralOff = true
			x, err = nil, nil
		} else if cancelled(err) {
			return err
		} else if err != nil {
			return fmt.Errorf("UMAP spectral start: %w", err)
		}
	} else if m.Init != UMAPInitPCA {
		panic(fmt.Sprintf("dimred: UMAP: unknown Init %d", m.Init))
	}
	if x == nil {
		x = deterministicPCA(y, q)
	}
	// Scale the start to a spread of 10 (umap-learn's expansion).
	big := 0.0
	for _, v := range x.RawMatrix().Data {
		big = max(big, math.Abs(v))
	}
	if big > 0 {
		x.Scale(10/big, x)
	}

	// Prune edges too weak to be sampled once in the run, and give each
	// directed edge its sampling period max(w)/w_ij in epochs.
	wmax := 0.0
	for _, v := range g.Val {
		wmax = max(wmax, v)
	}
	period := make([]float64, len(g.Val))
	for t, v := range g.Val {
		if v < wmax/float64(epochs) {
			period[t] = -1
		} else {
			period[t] = wmax / v
		}
	}
	opt := umapOptimiser{g: g, period: period, n: n, q: q, a: a, b: b, neg: neg, seed: seed}
	X := x.RawMatrix().Data
	stopped := false
	e := 0
	ph, err := progress.Start(ctx, "UMAP epochs", epochs)
	if err != nil {
		return err
	}
	for ; e < epochs; e++ {
		if err := ph.Set(e); err != nil {
			return err
		}
		alpha := lr * (1 - float64(e)/float64(epochs))
		if m.Monitor != nil && e%10 == 0 && m.Monitor(e, alpha) {
			stopped = true
			break
		}
		opt.epoch(X, X, e, alpha, nil)
	}
	if m.Monitor != nil && !stopped {
		m.Monitor(e, 0)
	}
	for _, v := range X {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			// Not ErrNotConverged, whose fit is kept and usable: there is
			// no estimate to keep.
			return fmt.Errorf("%w: UMAP: the embedding diverged to %v (learning rate %v too large?)", ErrOverflow, v, lr)
		}
	}
	fit.x = x
	m.fitted = fit
	return nil
}

// umapSpectral returns the q-dimensional Laplacian eigenmap of the graph g
// (eigenvectors of I − D^{-1/2} G D^{-1/2} after the trivial one), or an
// error wrapping ErrDisconnected.
func umapSpectral(ctx context.Context, g *linalg.CSR, q int) (*mat.Dense, error) {
	if err := neighbours.CheckConnected(g); err != nil {
		return nil, err
	}
	if q+1 >= g.N {
		return nil, fmt.Errorf("%w: spectral start needs more than q+1 points", ErrDisconnected)
	}
	L, err := neighbours.NormalisedLaplacian(g)
	if err != nil {
		return nil, err
	}
	_, vecs, err := linalg.EigenSymOpContext(ctx, L, q+1, linalg.Smallest, nil)
	if err != nil {
		return nil, err
	}
	// The null vector of the normalised Laplacian is D^{1/2} 1.
	u := g.RowSums()
	for i, d := range u {
		u[i] = math.Sqrt(d)
	}
	X := nontrivial(L, vecs, u, q, 1)
	fixColumnSigns(X)
	return X, nil
}

// umapOptimiser runs UMAP's epochs (see UMAP for the update order).
type umapOptimiser struct {
	g      *linalg.CSR
	period []float64 // sampling period of each directed edge; < 0: pruned
	n, q   int
	a, b   float64
	neg    int
	seed   uint64
}

// splitmix64 is the seed scrambler of each point's random stream.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

func clip4(v float64) float64 { return max(-4, min(4, v)) }

// detPow is x^y for x > 0 as exp(y log x) through detExp: math.Pow calls
// math.Exp, whose rounding depends on the processor (see detExp); math.Log
// does not.
func detPow(x, y float64) float64 { return detExp(float64(y * math.Log(x))) }

// epoch moves each head point i of the graph (or, for ProjectTo, each
// point of heads) for epoch e with step alpha: for every edge i→j due
// this epoch (period p: due when ⌊(e+1)/p⌋ > ⌊e/p⌋), attraction to x_j and
// ⌊neg·…⌋ repulsions from random points, against the positions others had
// at the start of the epoch (start), own position updated in place in dst.
// With heads nil, dst and start are the same n×q slice: a copy is taken.
func (o *umapOptimiser) epoch(dst, start []float64, e int, alpha float64, heads []int) {
	q := o.q
	n := o.n
	if heads == nil {
		start = append([]float64(nil), start...)
	}
	count := n
	if heads != nil {
		count = len(heads)
	}
	a, b := o.a, o.b
	parallel.ForWork(count, count*20*q*(1+o.neg), func(lo, hi int) {
		xi := make([]float64, q)
		for h := lo; h < hi; h++ {
			i := h
			if heads != nil {
				i = heads[h]
			}
			copy(xi, dst[h*q:(h+1)*q])
			s := splitmix64(o.seed ^ splitmix64(uint64(i)<<20^uint64(e)))
			if q == 2 {
				xi[0], xi[1] = o.move2(i, xi[0], xi[1], s, start, e, alpha, heads == nil)
				copy(dst[h*q:(h+1)*q], xi)
				continue
			}
			for t := o.g.RowPtr[i]; t < o.g.RowPtr[i+1]; t++ {
				p := o.period[t]
				if p < 0 {
					continue
				}
				due := math.Floor(float64(e+1)/p) - math.Floor(float64(e)/p)
				if due < 1 {
					continue
				}
				j := o.g.Col[t]
				xj := start[j*q : (j+1)*q]
				d2 := 0.0
				for c := range xi {
					u := xi[c] - xj[c]
					d2 += u * u
				}
				if d2 > 0 {
					pw := umapPow(d2, b-1)
					coef := -2 * a * b * pw / (a*pw*d2 + 1)
					for c := range xi {
						xi[c] += alpha * clip4(coef*(xi[c]-xj[c]))
					}
				}
				for r := 0; r < o.neg; r++ {
					s = splitmix64(s)
					kk := int(s % uint64(o.n))
					if kk == i && heads == nil {
						continue
					}
					xk := start[kk*q : (kk+1)*q]
					d2 := 0.0
					for c := range xi {
						u := xi[c] - xk[c]
						d2 += u * u
					}
					if d2 > 0 {
						coef := 2 * b / ((0.001 + d2) * (a*umapPow(d2, b) + 1))
						for c := range xi {
							xi[c] += alpha * clip4(coef*(xi[c]-xk[c]))
						}
					}
				}
			}
			copy(dst[h*q:(h+1)*q], xi)
		}
	})
}

// move2 is epoch's step for one point i at (x0, x1) when q = 2: the same
// operations in the same order as the general loop, unrolled (the common
// case; the loops over coordinates cost as much as the arithmetic). self
// skips negative samples that drew i itself.
func (o *umapOptimiser) move2(i int, x0, x1 float64, s uint64, start []float64, e int, alpha float64, self bool) (float64, float64) {
	a, b := o.a, o.b
	n := uint64(o.n)
	for t := o.g.RowPtr[i]; t < o.g.RowPtr[i+1]; t++ {
		p := o.period[t]
		if p < 0 {
			continue
		}
		due := math.Floor(float64(e+1)/p) - math.Floor(float64(e)/p)
		if due < 1 {
			continue
		}
		j := o.g.Col[t]
		xj := start[2*j : 2*j+2]
		u0, u1 := x0-xj[0], x1-xj[1]
		if d2 := u0*u0 + u1*u1; d2 > 0 {
			pw := umapPow(d2, b-1)
			coef := -2 * a * b * pw / (a*pw*d2 + 1)
			x0 += alpha * clip4(coef*(x0-xj[0]))
			x1 += alpha * clip4(coef*(x1-xj[1]))
		}
		for r := 0; r < o.neg; r++ {
			s = splitmix64(s)
			kk := int(s % n)
			if kk == i && self {
				continue
			}
			xk := start[2*kk : 2*kk+2]
			u0, u1 := x0-xk[0], x1-xk[1]
			if d2 := u0*u0 + u1*u1; d2 > 0 {
				coef := 2 * b / ((0.001 + d2) * (a*umapPow(d2, b) + 1))
				x0 += alpha * clip4(coef*(x0-xk[0]))
				x1 += alpha * clip4(coef*(x1-xk[1]))
			}
		}
	}
	return x0, x1
}

// LatentTo stores the n×q embedding in dst.
func (m *UMAP) LatentTo(dst *mat.Dense) {
	f := m.mustFit()
	r, c := f.x.Dims()
	dense.ReuseAs(dst, r, c)
	dst.Copy(f.x)
}

// CurveParams returns the fitted a and b of the edge model (see UMAPCurve).
func (m *UMAP) CurveParams() (a, b float64) { f := m.mustFit(); return f.a, f.b }

// SpectralFallback reports whether the spectral start was replaced by the
// PCA start because the fuzzy graph is disconnected.
func (m *UMAP) SpectralFallback() bool { return m.mustFit().spectralOff }

func (m *UMAP) mustFit() *umapFit {
	if m.fitted == nil {
		panic("dimred: UMAP: model not fitted")
	}
	return m.fitted
}

// ProjectTo stores in dst the embedding of the m new rows of Ynew (m×p)
// against the fixed training embedding (see UMAP).
func (m *UMAP) ProjectTo(dst *mat.Dense, Ynew mat.Matrix) {
	f := m.mustFit()
	checkProjectInput("UMAP", Ynew, "Ynew")
	mm, p := Ynew.Dims()
	n, pt := f.y.Dims()
	if p != pt {
		panic(mat.ErrShape)
	}
	_, q := f.x.Dims()
	dense.ReuseAs(dst, mm, q)
	yn := mat.DenseCopyOf(Ynew)
	if f.exp != 0 {
		yn = ldexpDense(yn, -f.exp)
	}
	k := f.k
	idx, dist := neighboursAmong(yn, f.y, k)
	for t, v := range dist {
		dist[t] = math.Sqrt(v)
	}
	w := smoothKNN(dist, mm, k)
	// A bipartite graph: new point r → training neighbours.
	g := &linalg.CSR{N: mm, RowPtr: make([]int, mm+1), Col: idx, Val: w}
	for r := 0; r <= mm; r++ {
		g.RowPtr[r] = r * k
	}
	wmax := 0.0
	for _, v := range w {
		wmax = max(wmax, v)
	}
	epochs := max(1, f.epochs/3)
	period := make([]float64, len(w))
	for t, v := range w {
		if v < wmax/float64(epochs) {
			period[t] = -1
		} else {
			period[t] = wmax / v
		}
	}
	X := f.x.RawMatrix().Data
	out := make([]float64, mm*q)
	for r := 0; r < mm; r++ {
		s := 0.0
		for t := 0; t < k; t++ {
			s += w[r*k+t]
		}
		for t := 0; t < k; t++ {
			j := idx[r*k+t]
			for c := 0; c < q; c++ {
				out[r*q+c] += w[r*k+t] / s * X[j*q+c]
			}
		}
	}
	opt := umapOptimiser{g: g, period: period, n: n, q: q, a: f.a, b: f.b, neg: f.negRate, seed: f.seed ^ 0x9e3779b97f4a7c15}
	heads := make([]int, mm)
	for r := range heads {
		heads[r] = r
	}
	for e := 0; e < epochs; e++ {
		alpha := 0.25 * f.lr * (1 - float64(e)/float64(epochs))
		opt.epoch(out, X, e, alpha, heads)
	}
	for r := 0; r < mm; r++ {
		for c := 0; c < q; c++ {
			dst.Set(r, c, out[r*q+c])
		}
	}
}
