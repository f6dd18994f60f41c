// Package dimred implements the dimensionality-reduction methods of Neil D.
// Lawrence's book "Dimensionality Reduction for Machine Learning" (draft of
// 26 June 2012) and its companion paper on spectral methods.
//
// # Notation
//
// The package follows the book's notation table (the book's front matter):
//
//	symbol   Go name      size   meaning
//	Y        Y            n×p    design matrix; row i is the observation y_{i,:}
//	Ŷ        —            n×p    centred design matrix, Ŷ = H Y
//	X        X            n×q    latent positions; row i is x_{i,:}
//	W        W            p×q    linear mapping from latent to data space
//	σ²       Sigma2       —      noise variance
//	H        —            n×n    centring matrix H = I − n⁻¹ 1 1ᵀ
//	S        —            p×p    sample covariance S = n⁻¹ Ŷᵀ Ŷ
//	K        —            n×n    inner-product (Gram) matrix K = Ŷ Ŷᵀ
//	D        D            n×n    squared (or plain, where stated) distances
//	n, p, q  n, p, Q      —      points, features, latent dimensions
//	G(a, b)  highdim.GammaPDF    —      gamma density with shape a and RATE b
//
// Rows are observations everywhere: a data matrix Y is n×p and an embedding
// X is n×q, the transpose of some textbooks' convention.
//
// # Methods, chapter by chapter
//
//	Chapter 2  PCA, PPCA (closed form, EM, FitMissing), FactorAnalysis,
//	           MixturePPCA, BayesianPCA; NearestNeighbourErrors,
//	           Trustworthiness, Continuity
//	Chapter 3  DistanceMatchingError, FeatureSelection, FeatureExtraction,
//	           PrincipalCoordinates, ClassicalMDS, Procrustes
//	Chapter 4  KernelPCA, PreImage
//	Chapter 5  LaplacianEigenmaps, LLE, Isomap (with landmarks), MVU
//	           (maximum variance unfolding, by a semidefinite programme);
//	           the unifying view: SpectralModel, ImpliedCovariance; the
//	           mattress model: LatticeSprings, Stiffness, SpringEnergy,
//	           SampleGRF, OUPrecision; quality: CoRankingMatrix,
//	           NeighbourhoodCurves (Q_NX, LCMC); the maximum-entropy
//	           family (paper §2–4): MEU, AcyclicLLE, DRILL (DRILLPath for
//	           the L1 sweep), and GPLVMScore, the paper's embedding score
//	Chapter 6  GTM (with MagnificationFactors), DensityNetwork
//	Chapter 7  GPLVM (exact, sparse variational, back-constrained; beyond
//	           the draft, which promises the chapter)
//
// # Packages beneath
//
// The methods stand on four packages that can be used on their own:
//
//	dimred/linalg      the numerical core: a partial symmetric eigensolver
//	                   (EigenSym, EigenSymOp: dense for small problems, thick-
//	                   restart block Lanczos and Chebyshev filtering for large,
//	                   sparse or implicit operators), TruncatedSVD, the sparse
//	                   CSR type, distances, Gram products, centring,
//	                   orthonormalisation and subspace angles
//	dimred/neighbours  kNN and ε graphs, symmetrisation, connected
//	                   components, geodesic distances and graph Laplacians
//	dimred/kernel      covariance functions (RBF, Linear, Polynomial), Gram
//	                   and cross-kernel matrices, basis-function feature maps
//	dimred/highdim     Chapter 1's (and §3.2's) mathematics of high
//	                   dimensions: egg masses, gamma laws of squared
//	                   distances, Gaussian samplers, the Bernoulli model
//
// Errors raised in those packages wrap the same sentinel values as this
// package's ([ErrNaN], [ErrNotConverged], [ErrDisconnected], ...), so
// errors.Is works whichever layer raised them.
//
// # Conventions
//
// Every embedding method implements [Embedder]: Fit(Y) then LatentTo(X);
// those with an out-of-sample map implement [Projector] (ProjectTo).
// Hyperparameters are exported struct fields commented with the book's symbol;
// the zero value of an optional field selects a documented default.
// Iterative methods have MaxIter, Tol and a Monitor callback; the package
// never prints. Random choices use a Src rand.Source field (math/rand/v2);
// nil means a fixed, documented seed, so every result is reproducible.
//
// Disconnected neighbourhood graphs: Isomap, LLE, LaplacianEigenmaps and MVU
// share one setting, the field Disconnected (a neighbours.DisconnectedPolicy):
// RefuseDisconnected, the zero value, returns an error wrapping
// [ErrDisconnected]; [LargestComponent] embeds the largest component only
// (LatentTo then has one row per point of the method's Kept); and
// [ConnectComponents] joins every pair of components by its shortest edge,
// as scikit-learn's Isomap does. Methods too costly for large n (MVU, MEU,
// DRILL) can be run on a stated subsample with the rest placed by LLE's
// reconstruction weights ([Subsample]).
// Eigenvectors have a fixed sign: the entry of largest magnitude is positive.
//
// The same name means the same thing in every method. Each rule is
// decided once here, and the public conformance suite dimredtest checks
// every method against the ones that can be checked from outside:
//
//   - Q is the latent dimension q and must be set: a zero (or negative) Q
//     is a programmer error and Fit panics. The one exception is
//     BayesianPCA, whose Q is only an upper bound that automatic relevance
//     determination prunes; its zero value means the largest useful bound.
//     A Q too large for the number of points n is a property of the data
//     size, as for K below: an error wrapping [ErrTooFewPoints] naming Q
//     and n, from one check in every method. Most methods need n > q (n
//     points span at most n − 1 dimensions about their mean); KernelPCA
//     and MVU, whose n×n kernel can have rank n, need n ≥ q; LLE, Isomap
//     and LaplacianEigenmaps, which drop a trivial eigenvector, n ≥ q + 2.
//     FeatureSelection keeps Q of the p coordinates, which needs no
//     particular n: its Q is bounded by p only (dimredtest's QBoundedByP).
//     A Q too large for the number of features p, in the linear models
//     that need q < p (or q ≤ p), panics: p is the caller's choice.
//   - K is the neighbour count of the neighbourhood methods (LLE, Isomap,
//     LaplacianEigenmaps, MVU, MEU, AcyclicLLE, DRILL): zero selects the
//     method's default, a negative K panics, and a k ≥ n, default or
//     explicit, is an error wrapping [ErrTooFewPoints] naming k and n —
//     too large a k is a property of the data size, not of the code. The
//     default is 10 for LLE, Isomap and LaplacianEigenmaps, whose sparse
//     eigenproblems cost little more with k, and 6 for MVU, MEU,
//     AcyclicLLE and DRILL, where every edge is a constraint of a
//     semidefinite programme or a free entry of a precision matrix, so
//     that the cost and the risk of an infeasible or singular problem grow
//     with k (MVU's SDP, DRILL's covariance selection).
//   - Impossible settings are rejected, never reinterpreted as defaults:
//     a NaN float64 setting or a negative int setting — of the model or of
//     a settings struct it points to, such as Eigen — panics naming the
//     field (one check at the top of every Fit); method-specific bounds
//     (a positive length scale, Landmarks > q + 1, ...) panic likewise. A
//     zero value means the documented default; a negative Tol, where the
//     method allows it, runs MaxIter iterations.
//   - Fit changes no exported field: settings are the caller's. A Kernel
//     whose hyperparameters a fit optimises (GPLVM, GPLVMScore) is copied
//     first (kernel.Clone); the fitted copy comes out through a getter
//     (GPLVM.FittedKernel, GPLVMScoreResult.Params). A Src is drawn from,
//     not replaced: two fits given equal sources agree bit for bit, and
//     with a nil Src every fit does.
//   - Method selects the algorithm (PCA.Method, PPCA.Method); Eigen
//     (*linalg.EigenSettings, nil for defaults) tunes the eigensolver
//     wherever the caller may want to (MEU, AcyclicLLE and DRILL run it
//     with its defaults and have no Eigen field; MVU's kernel comes from
//     its SDP); MaxIter counts iterations (EM steps, optimiser
//     iterations, SDP iterations, glasso sweeps, power iterations).
//   - Tol is the stopping tolerance of the method's iteration, zero meaning
//     its default. For the likelihood fits driven by the package's one
//     iteration loop (PPCA, FactorAnalysis, MixturePPCA, BayesianPCA,
//     GTM, DensityNetwork, GPLVM, GPLVMScore) it is the gain of the
//     objective per data point per iteration, in nats, below which the fit
//     has converged (see iterate.go for why per point). The other
//     iterations have their own natural quantity, named on the field: the
//     KKT residual relative to the mean d_ij/2 for MEU's projected Newton
//     iteration, the sine of the subspace angle between power iterations
//     for randomized PCA, the SDP's relative residuals and gap for MVU,
//     the mean |ΔW| relative to mean |S_ij| for DRILL, and the relative
//     residual ‖Av − λv‖ ≤ Tol·‖A‖ for linalg.EigenSettings.
//   - Monitor has one Go type, func(iter int, objective float64) bool,
//     on every iterative method (including DRILL): it sees the iteration
//     and the quantity the method stops on — the objective for the
//     likelihood fits, the duality gap for MVU, the mean |ΔW| of the sweep
//     for DRILL — and returning true stops the fit.
//   - Every …To extractor follows one dst rule: for a matrix, an empty dst
//     is resized and a dst of another shape panics with mat.ErrShape; for a
//     slice, a nil or empty dst is allocated and a dst of another length
//     panics with mat.ErrShape. Float64 slices come out only through
//     …To(dst).
//   - LoadingsTo is the p×q matrix of principal directions (or W) wherever
//     the method has one. EigenvaluesTo returns eigenvalues of the matrix
//     the method decomposes, read from the end the embedding uses, so that
//     the first values are those behind X's columns: descending for the
//     methods that embed from the top of a covariance, Gram or kernel
//     matrix (PCA, FeatureExtraction, PrincipalCoordinates, ClassicalMDS,
//     KernelPCA, Isomap, MVU, MEU, AcyclicLLE, DRILL), ascending for those
//     that embed from the bottom of a Laplacian or precision (LLE,
//     LaplacianEigenmaps), whose first value is the trivial eigenvalue 0
//     that the embedding discards. The length is q (q + 1 with the trivial
//     value) unless the method has the whole spectrum at no extra cost —
//     MVU's n eigenvalues of its learnt kernel, and every eigenvalue with
//     FullSpectrum (ClassicalMDS, Isomap); len tells.
//   - Failed fits: see "Errors and panics" below — one rule for every Fit,
//     implemented by discardOnError or by a reset at the top of Fit.
//   - No global state: importing a dimred package changes nothing outside
//     it. dimred's own large products call its fast BLAS directly;
//     linalg.UseFastBLAS installs that BLAS for the whole program.
//
// # Cancellation and progress
//
// Every method has FitContext(ctx, Y) ([ContextFitter]), and Fit(Y) is
// FitContext(context.Background(), Y); so do the other long entry points
// (PPCA.FitMissingContext, GPLVM.FitMissingContext,
// ClassicalMDS.FitDistancesContext, GPLVMScore.ScoreContext). One rule
// for all of them: once ctx
// is cancelled or past its deadline, the fit stops at its next check and
// returns an error wrapping ctx.Err() (context.Canceled or
// context.DeadlineExceeded; never one of the sentinels below), the model is
// left unfitted as after any failed Fit, and no goroutine of the fit is
// left running. The checks are made between units of work small enough
// that the fit returns within 100 ms of the cancel on the sizes the
// package targets: every block of 256 rows of the k-nearest-neighbour
// search (64 for the kd-tree), every source of the geodesic distances
// (one Dijkstra), every block product of the Lanczos eigensolvers, every
// dense step of the SDP's interior-point iteration, every EM step, every
// evaluation of L-BFGS, every t-SNE iteration, UMAP epoch and glasso
// sweep. A dense eigendecomposition (n ≤ linalg.DenseMax) and a method's
// closed-form steps run to their end first. The same checks report
// progress: a progress.Reporter attached to ctx (progress.With) sees each
// phase by name — "k-nearest neighbours", "geodesic distances",
// "eigensolver", "semidefinite programme", the iteration of an EM or
// L-BFGS fit under the method's name (e.g. "GTM EM", of MaxIter) — with
// the work done and its total, done never decreasing within a phase. No
// model has a field for either: the inner packages take the context
// (neighbours.Search.KNNGraphContext, neighbours.GeodesicDistancesContext,
// linalg.EigenSymContext, ...). Monitor is unchanged: it sees the
// objective, the Reporter the work. dimredtest's Context and Progress
// checks hold every method to this.
//
// # Errors and panics
//
// Programmer errors (shape mismatches, impossible parameters such as q ≤ 0,
// use of an unfitted model) panic with mat.ErrShape or a "dimred: ..."
// message. Bad data and numerical failure (NaN or Inf in Y, too few points,
// a disconnected neighbourhood graph, non-convergence, a singular matrix)
// are returned as errors wrapping one of the package's sentinels, such as
// [ErrNaN] or [ErrNotConverged], with context naming the point or parameter.
// For every model, too few points (n < 2) is an error, checked before Q. A covariance,
// Gram or distance matrix that overflows although every input entry is
// finite is [ErrOverflow] ("rescale the data"), never the caller's ErrNaN.
//
// A Fit that fails — returns an error other than ErrNotConverged, or
// panics — leaves the model unfitted: it never serves an earlier fit, and
// later use panics as before the first Fit. An ErrNotConverged fit keeps
// its last estimate and is usable.
//
// NaN in new data: ProjectTo (and ProjectDistancesTo, ProjectKernelTo,
// PreImage.MapTo) have no error to return, so a NaN or Inf entry panics
// with a message naming it — except PPCA.ProjectTo, which treats NaN as a
// missing value and marginalises it.
package dimred
