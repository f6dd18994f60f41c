package dimred

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dimredbook/book/dimred/internal/dense"
	"github.com/dimredbook/book/dimred/internal/errs"
	"github.com/dimredbook/book/dimred/internal/parallel"
	"github.com/dimredbook/book/dimred/linalg"
	"github.com/dimredbook/book/dimred/progress"

	"gonum.org/v1/gonum/mat"
)

// TSNEInit selects the starting embedding of t-SNE.
type TSNEInit int

const (
	// TSNEInitPCA starts from the first q principal components, scaled so
	// that the first has standard deviation 10⁻⁴: the initialisation that
	// keeps the data's global structure (Kobak & Linderman 2021, "Initialization
	// is critical for preserving global data structure in both t-SNE and
	// UMAP"). The default.
	TSNEInitPCA TSNEInit = iota
	// TSNEInitRandom starts from independent N(0, 10⁻⁸) coordinates drawn
	// from Src (van der Maaten & Hinton 2008).
	TSNEInitRandom
)

// TSNE is t-distributed stochastic neighbour embedding (van der Maaten &
// Hinton 2008, "Visualizing data using t-SNE"), with the Barnes–Hut
// approximation of van der Maaten (2014, "Accelerating t-SNE using
// tree-based algorithms"). It is not in the book, which stops before it, but
// it is built from the book's parts:
//
//   - the neighbourhood graph of chapter 5: each point's k = ⌊3·Perplexity⌋
//     nearest neighbours, weighted by a Gaussian whose precision β_i is set
//     so that the conditional distribution p_{j|i} ∝ exp(−β_i‖y_i − y_j‖²)
//     has perplexity 2^H = Perplexity; the joint affinities are
//     p_ij = (p_{j|i} + p_{i|j})/(2n), a symmetric, normalised version of
//     the weights a_ij of Laplacian eigenmaps (§5.4);
//
//   - a probabilistic model of the embedding with a heavy-tailed kernel,
//     q_ij = (1 + ‖x_i − x_j‖²)⁻¹ / Σ_{k≠l} (1 + ‖x_k − x_l‖²)⁻¹, a Student-t
//     with one degree of freedom where §5.4's heat kernel would be Gaussian;
//
//   - the objective KL(P‖Q) = Σ_ij p_ij log(p_ij/q_ij), whose gradient
//
//     ∂KL/∂x_i = 4 Σ_j (p_ij − q_ij)(1 + ‖x_i − x_j‖²)⁻¹ (x_i − x_j)
//
//     is an attraction along the graph's edges (sparse, the Laplacian's
//     pattern) and a repulsion between all pairs — computed exactly for
//     small n and by Barnes–Hut for large n.
//
// Optimisation follows van der Maaten (2014) and scikit-learn: gradient
// descent with momentum 0.5 and P multiplied by EarlyExaggeration for the
// first EarlyIter iterations, momentum 0.8 after, and per-coordinate gains
// (+0.2 when the gradient changes sign, ×0.8 otherwise, at least 0.01).
// The learning rate defaults to max(n/EarlyExaggeration/4, 50) (Belkina et
// al. 2019; scikit-learn's "auto").
//
// Reproducibility: with a fixed Src (or nil) the embedding is the same bit
// for bit run to run, on one thread or many, and on every amd64 processor
// in the default (pure-Go) build — the openblas build hands the PCA start's
// product to OpenBLAS, whose rounding depends on the processor: every sum is taken in a fixed order by
// one goroutine, the neighbour distances are recomputed in textbook order
// after the fast search, the exponential is computed without fused
// multiply–adds, and the PCA start uses only products that are
// bit-identical across processors.
//
// ProjectTo places new points against the fixed embedding, as openTSNE's
// transform does: each new point's affinities to its training neighbours,
// at the same perplexity, and its position minimising its own KL divergence
// with the training embedding fixed.
type TSNE struct {
	Q          int     // q, latent dimension; 0 means 2
	Perplexity float64 // effective number of neighbours, ≥ 1; 0 means 30
	// EarlyExaggeration multiplies P during the first EarlyIter
	// iterations; 0 means 12 and 250.
	EarlyExaggeration float64
	EarlyIter         int
	// LearningRate η; 0 means max(n/EarlyExaggeration/4, 50).
	LearningRate float64
	// MaxIter is the total number of gradient iterations, early phase
	// included; 0 means 1000.
	MaxIter int
	// Theta is the Barnes–Hut opening angle θ (a cell of side s at distance
	// d is summarised when s/d < θ), in (0, 1). 0 means 0.5 when n ≥ 1000
	// and q = 2, and exact sums otherwise; a negative Theta forces exact
	// O(n²) sums. Barnes–Hut is implemented for q = 2; other q are exact.
	Theta float64
	Init  TSNEInit
	// Src is the random source of TSNEInitRandom; nil means a PCG seeded
	// (1, 2). The PCA start uses no randomness.
	Src rand.Source
	// Monitor, if not nil, is called every 50 iterations and at the end
	// with the iteration and KL(P‖Q); returning true stops the fit.
	Monitor func(iter int, kl float64) bool

	fitted *tsneFit
}

type tsneFit struct {
	x, y    *mat.Dense // n×q embedding; n×p training data
	perp    float64
	kl      float64
	iters   int
	exact   bool
	theta   float64
	initial *mat.Dense
	exp     int // the training data were scaled by 2^-exp (see Fit)
}

var _ Projector = (*TSNE)(nil)

func (m *TSNE) settings(n int) (q int, perp, ee float64, eeIter int, lr float64, maxIter int, theta float64) {
	q = m.Q
	if q == 0 {
		q = 2
	}
	if q < 0 {
		panic(fmt.Sprintf("dimred: TSNE: Q = %d", m.Q))
	}
	perp = m.Perplexity
	if perp == 0 {
		perp = 30
	}
	// A perplexity 2^H is at least 1 (one neighbour), and below 1/3 the
	// neighbourhood k = ⌊3·Perplexity⌋ would be empty.
	if !(perp >= 1) || math.IsInf(perp, 0) {
		panic(fmt.Sprintf("dimred: TSNE: Perplexity = %v, want a finite number ≥ 1", m.Perplexity))
	}
	ee = m.EarlyExaggeration
	if ee == 0 {
		ee = 12
	}
	if !(ee >= 1) || math.IsInf(ee, 0) {
		panic(fmt.Sprintf("dimred: TSNE: EarlyExaggeration = %v, want ≥ 1", m.EarlyExaggeration))
	}
	eeIter = m.EarlyIter
	if eeIter == 0 {
		eeIter = 250
	}
	maxIter = m.MaxIter
	if maxIter == 0 {
		maxIter = 1000
	}
	if eeIter < 0 || maxIter < 0 {
		panic(fmt.Sprintf("dimred: TSNE: EarlyIter = %d, MaxIter = %d", m.EarlyIter, m.MaxIter))
	}
	lr = m.LearningRate
	if lr == 0 {
		lr = max(float64(n)/ee/4, 50)
	}
	if !(lr > 0) || math.IsInf(lr, 0) {
		panic(fmt.Sprintf("dimred: TSNE: LearningRate = %v", m.LearningRate))
	}
	theta = m.Theta
	switch {
	case math.IsNaN(theta) || theta >= 1:
		panic(fmt.Sprintf("dimred: TSNE: Theta = %v, want < 1 (negative: exact)", m.Theta))
	case theta == 0 && n >= 1000 && q == 2:
		theta = 0.5
	case theta <= 0 || q != 2:
		theta = 0
	}
	return
}

// Fit embeds the rows of Y (n×p). It needs n > Perplexity + 1 points (a
// perplexity of n − 1 would be every other point weighted equally).
func (m *TSNE) Fit(Y mat.Matrix) error { return m.FitContext(context.Background(), Y) }

// FitContext is Fit under ctx: cancelling ctx stops the fit promptly with an
// error wrapping ctx.Err() and leaves the model unfitted; the fit reports
// its phases to ctx's progress.Reporter (see the package doc,
// "Cancellation and progress").
func (m *TSNE) FitContext(ctx context.Context, Y mat.Matrix) (err error) {
	defer discardOnError(&err, &m.fitted)
	m.fitted = nil
	n, _ := Y.Dims()
	q, perp, ee, eeIter, lr, maxIter, theta := m.settings(n)
	y, err := checkEmbedData("TSNE", Y, 3)
	if err != nil {
		return err
	}
	// The affinities are scale-free (each β_i adapts to its distances), but
	// the squared distances of data below 2^-256 underflow (1e-160·Y
	// diverged): such data are scaled by a power of two, and so is new
	// data in ProjectTo.
	exp := 0
	if e := maxExponent(y); e < -256 {
		exp, y = e, ldexpDense(y, -e)
	}
	if perp >= float64(n-1) {
		return fmt.Errorf("%w: TSNE with Perplexity %v needs more than %v points, got %d", ErrTooFewPoints, perp, perp+1, n)
	}
	k := min(n-1, int(3*perp))
	idx, d2, err := exactNeighboursContext(ctx, y, k)
	if err != nil {
		return errs.Wrap(err, "TSNE")
	}
	P := symmetrise(idx, perplexityRows(d2, n, k, perp), n, k)

	var x *mat.Dense
	switch m.Init {
	case TSNEInitPCA:
		x = deterministicPCA(y, q)
		sd := 0.0
		for i := 0; i < n; i++ {
			sd += x.At(i, 0) * x.At(i, 0)
		}
		sd = math.Sqrt(sd / float64(n))
		if sd > 0 {
			x.Scale(1e-4/sd, x)
		}
	case TSNEInitRandom:
		src := m.Src
		if src == nil {
			src = rand.NewPCG(1, 2)
		}
		rnd := rand.New(src)
		x = mat.NewDense(n, q, nil)
		for i := 0; i < n; i++ {
			for c := 0; c < q; c++ {
				x.Set(i, c, 1e-4*rnd.NormFloat64())
			}
		}
	default:
		panic(fmt.Sprintf("dimred: TSNE: unknown Init %d", m.Init))
	}
	fit := &tsneFit{y: y, perp: perp, exact: theta == 0, theta: theta, initial: mat.DenseCopyOf(x), exp: exp}
	opt := tsneOptimiser{P: P, n: n, q: q, theta: theta}
	X := x.RawMatrix().Data
	update := make([]float64, n*q)
	gains := make([]float64, n*q)
	for i := range gains {
		gains[i] = 1
	}
	grad := make([]float64, n*q)
	it := 0
	stopped := false
	ph, err := progress.Start(ctx, "t-SNE iterations", maxIter)
	if err != nil {
		return err
	}
	for ; it < maxIter; it++ {
		if err := ph.Set(it); err != nil {
			return err
		}
		exag, mom := 1.0, 0.8
		if it < eeIter {
			exag, mom = ee, 0.5
		}
		if it%50 == 0 && m.Monitor != nil {
			if m.Monitor(it, opt.kl(X)) {
				stopped = true
				break
			}
		}
		opt.gradient(grad, X, exag)
		for t := range X {
			g := grad[t]
			if (g > 0) != (update[t] > 0) {
				gains[t] += 0.2
			} else {
				gains[t] = max(gains[t]*0.8, 0.01)
			}
			update[t] = mom*update[t] - lr*gains[t]*g
			X[t] += update[t]
		}
	}
	fit.x, fit.iters = x, it
	fit.kl = opt.kl(X)
	if m.Monitor != nil && !stopped {
		m.Monitor(it, fit.kl)
	}
	for _, v := range X {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			// Not ErrNotConverged, whose fit is kept and usable: there is
			// no estimate to keep.
			return fmt.Errorf("%w: TSNE: the embedding diverged to %v (learning rate %v too large?)", ErrOverflow, v, lr)
		}
	}
	m.fitted = fit
	return nil
}

// tsneOptimiser evaluates KL(P‖Q) and its gradient.
type tsneOptimiser struct {
	P     *sparseAffinity
	n, q  int
	theta float64
}

// repulsions fills z[i] = Σ_j q̃_ij and rep[i·q:] = Σ_j q̃_ij² (x_i − x_j),
// exactly or by Barnes–Hut, in parallel over i (each entry computed by one
// goroutine in a fixed order).
func (o *tsneOptimiser) repulsions(z, rep, X []float64) {
	n, q := o.n, o.q
	if o.theta > 0 {
		tree := newQuadTree(X, n)
		theta2 := o.theta * o.theta
		// Points in tree order: neighbours in the plane are handled one
		// after another and walk nearly the same cells (each point's sums
		// are its own, so the order changes no bit of them).
		parallel.For(n, 64, func(lo, hi int) {
			for _, p := range tree.perm[lo:hi] {
				i := int(p)
				var fx, fy float64
				z[i], fx, fy = tree.repulsion(i, theta2)
				rep[2*i], rep[2*i+1] = fx, fy
			}
		})
		return
	}
	parallel.ForWork(n, n*n*q, func(lo, hi int) {
		f := make([]float64, q)
		for i := lo; i < hi; i++ {
			xi := X[i*q : (i+1)*q]
			zi := 0.0
			clear(f)
			for j := 0; j < n; j++ {
				if j == i {
					continue
				}
				xj := X[j*q : (j+1)*q]
				d2 := 0.0
				for c := range xi {
					t := xi[c] - xj[c]
					d2 += t * t
				}
				w := 1 / (1 + d2)
				zi += w
				w *= w
				for c := range xi {
					f[c] += w * (xi[c] - xj[c])
				}
			}
			z[i] = zi
			copy(rep[i*q:(i+1)*q], f)
		}
	})
}

// gradient stores ∂KL/∂X (with P multiplied by exag) in grad.
func (o *tsneOptimiser) gradient(grad, X []float64, exag float64) {
	n, q := o.n, o.q
	z := make([]float64, n)
	o.repulsions(z, grad, X)
	Z := 0.0
	for _, v := range z {
		Z += v
	}
	P := o.P
	parallel.ForWork(n, len(P.val)*q*4, func(lo, hi int) {
		a := make([]float64, q)
		for i := lo; i < hi; i++ {
			xi := X[i*q : (i+1)*q]
			clear(a)
			for t := P.ptr[i]; t < P.ptr[i+1]; t++ {
				xj := X[P.idx[t]*q : (P.idx[t]+1)*q]
				d2 := 0.0
				for c := range xi {
					u := xi[c] - xj[c]
					d2 += u * u
				}
				w := P.val[t] / (1 + d2)
				for c := range xi {
					a[c] += w * (xi[c] - xj[c])
				}
			}
			g := grad[i*q : (i+1)*q]
			for c := range g {
				g[c] = 4 * (exag*a[c] - g[c]/Z)
			}
		}
	})
}

// kl returns KL(P‖Q) = Σ_ij p_ij log(p_ij Z (1 + ‖x_i − x_j‖²)), with Z
// from the same (exact or Barnes–Hut) sums as the gradient.
func (o *tsneOptimiser) kl(X []float64) float64 {
	n, q := o.n, o.q
	z := make([]float64, n)
	o.repulsions(z, make([]float64, n*q), X)
	Z := 0.0
	for _, v := range z {
		Z += v
	}
	P := o.P
	part := make([]float64, n)
	parallel.ForWork(n, len(P.val)*q*8, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			xi := X[i*q : (i+1)*q]
			s := 0.0
			for t := P.ptr[i]; t < P.ptr[i+1]; t++ {
				xj := X[P.idx[t]*q : (P.idx[t]+1)*q]
				d2 := 0.0
				for c := range xi {
					u := xi[c] - xj[c]
					d2 += u * u
				}
				if p := P.val[t]; p > 0 {
					s += p * math.Log(p*Z*(1+d2))
				}
			}
			part[i] = s
		}
	})
	kl := 0.0
	for _, v := range part {
		kl += v
	}
	return kl
}

// deterministicPCA returns the n×q principal-component scores of y (n×p)
// from the p×p covariance formed by linalg.GemmNT (bit-identical on every
// amd64 processor) and gonum's symmetric eigensolver, with each loading's
// largest-magnitude entry positive. For p > n (images: 4096 pixels of 360
// sixes) it works from the n×n Gram matrix G = Y_c Y_cᵀ of the centred
// rows instead: G u = λ u gives the loading w = Y_cᵀu/‖Y_cᵀu‖, the same
// direction as the covariance's eigenvector, at O(n²p + n³) cost instead
// of O(np² + p³).
func deterministicPCA(y *mat.Dense, q int) *mat.Dense {
	n, p := y.Dims()
	return deterministicPCAVia(y, q, p > n)
}

func deterministicPCAVia(y *mat.Dense, q int, gram bool) *mat.Dense {
	n, p := y.Dims()
	mean := make([]float64, p)
	for i := 0; i < n; i++ {
		for j, v := range y.RawRowView(i) {
			mean[j] += v
		}
	}
	for j := range mean {
		mean[j] /= float64(n)
	}
	at := mat.NewDense(p, n, nil) // centred Yᵀ
	for i := 0; i < n; i++ {
		for j, v := range y.RawRowView(i) {
			at.Set(j, i, v-mean[j])
		}
	}
	// a is the matrix whose Gram matrix is decomposed: Y_cᵀ (p×n) for the
	// covariance, Y_c (n×p) for the Gram route.
	a := at
	if gram {
		a = mat.NewDense(n, p, nil)
		a.CloneFrom(at.T())
	}
	m, _ := a.Dims()
	c := mat.NewDense(m, m, nil)
	linalg.GemmNT(1, a.RawMatrix(), a.RawMatrix(), 0, c.RawMatrix())
	s := mat.NewSymDense(m, nil)
	for i := 0; i < m; i++ {
		for j := i; j < m; j++ {
			s.SetSym(i, j, c.At(i, j))
		}
	}
	var es mat.EigenSym
	if !es.Factorize(s, true) {
		panic("dimred: TSNE: eigendecomposition of the covariance failed")
	}
	var v mat.Dense
	es.VectorsTo(&v)
	x := mat.NewDense(n, q, nil)
	for c := 0; c < q; c++ {
		col := m - 1 - c
		if col < 0 || c >= min(n, p) {
			break // q > rank bound: the extra coordinates stay zero
		}
		w := make([]float64, p)
		if gram {
			// w = Y_cᵀ u, normalised.
			nrm := 0.0
			for j := 0; j < p; j++ {
				t := 0.0
				for i := 0; i < n; i++ {
					t += at.At(j, i) * v.At(i, col)
				}
				w[j] = t
				nrm += t * t
			}
			if nrm == 0 {
				break
			}
			nrm = math.Sqrt(nrm)
			for j := range w {
				w[j] /= nrm
			}
		} else {
			for j := 0; j < p; j++ {
				w[j] = v.At(j, col)
			}
		}
		big := 0.0
		for j := range w {
			if math.Abs(w[j]) > math.Abs(big) {
				big = w[j]
			}
		}
		if big < 0 {
			for j := range w {
				w[j] = -w[j]
			}
		}
		for i := 0; i < n; i++ {
			s := 0.0
			for j := 0; j < p; j++ {
				s += at.At(j, i) * w[j]
			}
			x.Set(i, c, s)
		}
	}
	return x
}

// LatentTo stores the n×q embedding in dst.
func (m *TSNE) LatentTo(dst *mat.Dense) {
	f := m.mustFit()
	r, c := f.x.Dims()
	dense.ReuseAs(dst, r, c)
	dst.Copy(f.x)
}

// KLDivergence returns KL(P‖Q) at the fitted embedding (with Barnes–Hut's
// approximate normalisation when the fit used it).
func (m *TSNE) KLDivergence() float64 { return m.mustFit().kl }

// Iterations returns the number of gradient iterations run.
func (m *TSNE) Iterations() int { return m.mustFit().iters }

func (m *TSNE) mustFit() *tsneFit {
	if m.fitted == nil {
		panic("dimred: TSNE: model not fitted")
	}
	return m.fitted
}

// ProjectTo stores in dst the positions of the m new rows of Ynew (m×p)
// against the fixed training embedding. Each new point y gets affinities
// p_j to its k nearest training points at the model's perplexity, starts at
// their p-weighted mean position, and then minimises its own divergence
//
//	C(x) = Σ_j p_j log(p_j/q_j),  q_j = (1 + ‖x − x_j‖²)⁻¹ / Σ_l (1 + ‖x − x_l‖²)⁻¹,
//
// over the training points, by gradient descent with a backtracking step
// (every step decreases C; exact sums over the training points), from the
// cheaper of their weighted mean position and the positions of the three
// nearest. New points
// do not interact, so each is placed independently and in parallel, and
// ProjectTo of the training rows gives positions close to, not equal to,
// LatentTo's (t-SNE's embedding is not a function of the data).
func (m *TSNE) ProjectTo(dst *mat.Dense, Ynew mat.Matrix) {
	f := m.mustFit()
	checkProjectInput("TSNE", Ynew, "Ynew")
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
	k := min(n, int(3*f.perp))
	idx, d2 := neighboursAmong(yn, f.y, k)
	perp := min(f.perp, float64(k)-1)
	P := perplexityRows(d2, mm, k, max(perp, 1))
	X := f.x.RawMatrix().Data
	out := make([]float64, mm*q)
	parallel.ForWork(mm, mm*n*q*100, func(lo, hi int) {
		for r := lo; r < hi; r++ {
			placePoint(out[r*q:(r+1)*q], X, n, q, idx[r*k:(r+1)*k], P[r*k:(r+1)*k])
		}
	})
	for r := 0; r < mm; r++ {
		for c := 0; c < q; c++ {
			dst.Set(r, c, out[r*q+c])
		}
	}
}

// placePoint minimises one new point's divergence C(x) (see ProjectTo).
func placePoint(x, X []float64, n, q int, nbr []int, p []float64) {
	clear(x)
	for t, j := range nbr {
		for c := 0; c < q; c++ {
			x[c] += p[t] * X[j*q+c]
		}
	}
	cost := func(x, g []float64) float64 {
		// C(x) = −Σ_t p_t log q̃_t + log Σ_l q̃_l (+ const), and its gradient
		// 2 Σ_t p_t q̃_t (x − x_t) − (2/Z) Σ_l q̃_l² (x − x_l).
		if g != nil {
			clear(g)
		}
		Z := 0.0
		for l := 0; l < n; l++ {
			d2 := 0.0
			for c := 0; c < q; c++ {
				u := x[c] - X[l*q+c]
				d2 += u * u
			}
			w := 1 / (1 + d2)
			Z += w
			if g != nil {
				w *= w
				for c := 0; c < q; c++ {
					g[c] -= w * (x[c] - X[l*q+c])
				}
			}
		}
		for c := range g { // g nil: no gradient wanted
			g[c] *= 2 / Z
		}
		C := math.Log(Z)
		for t, j := range nbr {
			d2 := 0.0
			for c := 0; c < q; c++ {
				u := x[c] - X[j*q+c]
				d2 += u * u
			}
			C += p[t] * math.Log(1+d2)
			if g != nil {
				w := 2 * p[t] / (1 + d2)
				for c := 0; c < q; c++ {
					g[c] += w * (x[c] - X[j*q+c])
				}
			}
		}
		return C
	}
	// The start: the p-weighted mean of the neighbours' positions, or the
	// position of one of the three nearest neighbours, whichever costs
	// least. The mean alone can fall between two folds of the embedding
	// (a curve laid out in a zigzag) and descend into the wrong one.
	best := cost(x, nil)
	cand := make([]float64, q)
	for _, j := range nbr[:min(3, len(nbr))] {
		copy(cand, X[j*q:(j+1)*q])
		if c := cost(cand, nil); c < best {
			best = c
			copy(x, cand)
		}
	}
	g := make([]float64, q)
	xn := make([]float64, q)
	step := 1.0
	C := cost(x, g)
	for it := 0; it < 100; it++ {
		gn := 0.0
		for _, v := range g {
			gn += v * v
		}
		if gn < 1e-16 {
			break
		}
		for {
			for c := range x {
				xn[c] = x[c] - step*g[c]
			}
			Cn := cost(xn, nil)
			if Cn <= C-1e-4*step*gn {
				copy(x, xn)
				C = cost(x, g)
				step *= 2
				break
			}
			step /= 2
			if step < 1e-12 {
				return
			}
		}
	}
}

// cand is a candidate neighbour: squared distance and index.
type cand struct {
	d float64
	j int
}

func (a cand) less(b cand) bool { return a.d < b.d || a.d == b.d && a.j < b.j }

// selectCands reorders c so that its k smallest (by less) come first, in
// no particular order (Hoare's quickselect with a median-of-three pivot;
// deterministic).
func selectCands(c []cand, k int) {
	lo, hi := 0, len(c)-1
	for lo < hi {
		mid := lo + (hi-lo)/2
		if c[mid].less(c[lo]) {
			c[mid], c[lo] = c[lo], c[mid]
		}
		if c[hi].less(c[lo]) {
			c[hi], c[lo] = c[lo], c[hi]
		}
		if c[hi].less(c[mid]) {
			c[hi], c[mid] = c[mid], c[hi]
		}
		pivot := c[mid]
		i, j := lo, hi
		for i <= j {
			for c[i].less(pivot) {
				i++
			}
			for pivot.less(c[j]) {
				j--
			}
			if i <= j {
				c[i], c[j] = c[j], c[i]
				i++
				j--
			}
		}
		switch {
		case k-1 <= j:
			hi = j
		case k-1 >= i:
			lo = i
		default:
			return
		}
	}
}
