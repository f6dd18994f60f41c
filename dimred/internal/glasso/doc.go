// Package glasso implements the graphical lasso of Friedman, Hastie and
// Tibshirani, "Sparse inverse covariance estimation with the graphical
// lasso" (Biostatistics 9(3), 2008), extended to a prescribed sparsity
// pattern as used by DRILL (Lawrence, "Spectral dimensionality reduction via
// maximum entropy", §3: Dimensionality reduction through Regularization of
// the Inverse covariance in the Log Likelihood).
//
// Given an n×n empirical covariance S, penalties ρᵢⱼ ≥ 0 and an undirected
// graph G on the n variables, Solve maximises over symmetric positive
// definite Θ (the precision)
//
//	log det Θ − tr(SΘ) − Σ_{i≠j, ij∈G} ρᵢⱼ |Θᵢⱼ| − [Σᵢ ρ |Θᵢᵢ|]
//	subject to Θᵢⱼ = 0 for i≠j, ij ∉ G,
//
// so pairs outside the graph carry an infinite penalty and pairs on it the
// finite penalty ρᵢⱼ (which may be zero). The off-diagonal sum runs over
// ordered pairs, i.e. it is the entrywise ‖Θ‖₁ of the paper, each unordered
// edge counted twice. The bracketed diagonal term is included only when
// Settings.PenaliseDiagonal is set (the paper's formulation, and the DRILL
// reference code, penalise the diagonal; scikit-learn does not). With a nil
// graph every pair is allowed and the problem is the ordinary graphical
// lasso.
//
// In DRILL the "variables" are the n data points: S = ŶŶᵀ/p for centred
// n×p data Ŷ, G is the k-nearest-neighbour graph (or every pair), ρ = 0
// gives the maximum entropy model with the neighbourhood's second moments
// matched, and ρ > 0 learns the neighbourhood by L1 shrinkage. DRILL's
// objective E(Λ) = −log p(Y) + Σ_{i<j} |λᵢⱼ| carries a factor p/2 on the
// log likelihood and counts each edge once, so its λ corresponds to
// ρ = λ/p here.
//
// # Optimality (KKT) conditions
//
// With W = Θ⁻¹ the stationarity condition is W − S − Γ = 0 with Γᵢⱼ =
// ρᵢⱼ sign(Θᵢⱼ) where Θᵢⱼ ≠ 0 and Γᵢⱼ ∈ [−ρᵢⱼ, ρᵢⱼ] where Θᵢⱼ = 0, for
// allowed pairs; Wᵢᵢ = Sᵢᵢ + ρ on the diagonal if it is penalised, Wᵢᵢ = Sᵢᵢ
// if not; Wᵢⱼ is free (and Θᵢⱼ = 0) off the graph. For ρ = 0 on a graph this
// is Dempster's (1972) covariance selection: W is the maximum-entropy
// positive definite completion of S from the entries on the graph and the
// diagonal.
//
// # Algorithm
//
// Block coordinate ascent on the dual, max log det W subject to
// |Wᵢⱼ − Sᵢⱼ| ≤ ρᵢⱼ on the graph, one row/column of W at a time (Friedman et
// al. 2008, §2). For column j with allowed neighbours N = N(j) (m = |N|) it
// solves the lasso
//
//	min_β ½ βᵀ W_NN β − s_Nᵀ β + Σ_{k∈N} ρ_jk |β_k|
//
// by cyclic coordinate descent with warm starts from the previous sweep,
// finished by an exact solve on the active set, and sets w_{·j} = W_{·N} β
// for every other row. The lasso only involves the m×m block W_NN, so a
// k-nearest-neighbour graph costs O(n·k) per column instead of O(n²). After
// convergence Θⱼⱼ = 1/(Wⱼⱼ − w_Nⱼᵀβ) and Θ_Nⱼ = −β Θⱼⱼ; Θ is symmetrised by
// averaging, which keeps the zero pattern exact.
//
// Convergence: a sweep has converged when the mean absolute change of the
// entries of W over the sweep is below Tol times the mean absolute
// off-diagonal entry of S (the paper's rule, default Tol 1e-4).
package glasso
