// Package dimred implements the dimensionality-reduction methods of Neil D.
// Lawrence's book "Dimensionality Reduction for Machine Learning" (draft of
// 26 June 2012) and its companion paper on spectral methods.
//
// # Notation
//
// The package follows the book's notation table (book L.117–217):
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
//	G(a, b)  GammaPDF     —      gamma density with shape a and RATE b
//
// Rows are observations everywhere: a data matrix Y is n×p and an embedding
// X is n×q, the transpose of some textbooks' convention.
//
// # Methods, chapter by chapter
//
//	Chapter 1  EggMasses, GammaPDF, GammaCDF, InterpointSquaredDistance,
//	           InterpointVariance, NormalisedInterpointDistances,
//	           SampleIsotropic, SampleLinearGaussian, SampleGaussian
//	Chapter 2  PCA, PPCA (closed form, EM, FitMissing), FactorAnalysis,
//	           MixturePPCA, BayesianPCA; NearestNeighbourErrors,
//	           Trustworthiness, Continuity
//	Chapter 3  DistanceMatchingError, FeatureSelection, FeatureExtraction,
//	           PrincipalCoordinates, ClassicalMDS, Procrustes, Bernoulli
//	Chapter 4  Kernel (RBF, Linear, Polynomial), EQBasis, GramTo,
//	           ImpliedSquaredDistancesTo, KernelPCA, PreImage
//
// # Numerical core
//
// Every method needs only a few eigenvectors, so the package has a partial
// symmetric eigensolver: EigenSym (dense matrices) and EigenSymOp (any
// SymOperator: DenseOperator, the sparse CSR type, or implicit operators
// such as DoubleCentred, which applies −½ H A H without forming H). Small
// problems use gonum's dense mat.EigenSym; larger ones a thick-restart
// block Lanczos method with full reorthogonalisation (see EigenSettings for
// the measured crossover). TruncatedSVD chooses between an exact path
// through the eigensolver and the randomized range finder of Halko,
// Martinsson and Tropp. Neighbourhood graphs (KNNGraph, EpsilonGraph,
// ConnectedComponents) and GeodesicDistances serve the spectral methods.
// Parallel work is spread over GOMAXPROCS goroutines.
//
// # Conventions
//
// Every embedding method implements [Embedder]: Fit(Y) then LatentTo(X).
// Hyperparameters are exported struct fields commented with the book's symbol;
// the zero value of an optional field selects a documented default.
// Iterative methods have MaxIter, Tol and a Monitor callback; the package
// never prints. Random choices use a Src rand.Source field (math/rand/v2);
// nil means a fixed, documented seed, so every result is reproducible.
// Eigenvectors have a fixed sign: the entry of largest magnitude is positive.
//
// # Errors and panics
//
// Programmer errors (shape mismatches, impossible parameters such as q ≤ 0,
// use of an unfitted model) panic with mat.ErrShape or a "dimred: ..."
// message. Bad data and numerical failure (NaN or Inf in Y, too few points,
// a disconnected neighbourhood graph, non-convergence, a singular matrix)
// are returned as errors wrapping one of the package's sentinels, such as
// [ErrNaN] or [ErrNotConverged], with context naming the point or parameter.
package dimred
