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
// The same name means the same thing in every method:
//
//   - Q is the latent dimension q and must be set: a zero (or negative) Q
//     is a programmer error and Fit panics. The one exception is
//     BayesianPCA, whose Q is only an upper bound that automatic relevance
//     determination prunes; its zero value means the largest useful bound.
//   - K is the neighbour count of the neighbourhood methods (LLE, Isomap,
//     LaplacianEigenmaps, MVU, MEU, AcyclicLLE, DRILL): zero selects the
//     method's default, a negative K panics, and a k ≥ n, default or
//     explicit, is an error wrapping [ErrTooFewPoints] naming k and n —
//     too large a k is a property of the data size, not of the code.
//   - Method selects the algorithm (PCA.Method, PPCA.Method); Eigen
//     (*linalg.EigenSettings, nil for defaults) tunes the eigensolver
//     wherever one runs; MaxIter counts iterations.
//   - Every …To extractor follows one dst rule: for a matrix, an empty dst
//     is resized and a dst of another shape panics with mat.ErrShape; for a
//     slice, a nil or empty dst is allocated and a dst of another length
//     panics with mat.ErrShape. Float64 slices come out only through
//     …To(dst).
//   - LoadingsTo is the p×q matrix of principal directions (or W) wherever
//     the method has one; EigenvaluesTo the leading eigenvalues.
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
