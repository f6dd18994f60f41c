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
// |Wᵢⱼ − Sᵢⱼ| ≤ ρᵢⱼ on the graph and the diagonal fixed, one row/column of W
// at a time (Friedman et al. 2008, §2). For column j with allowed
// neighbours N = N(j) (m = |N|) it solves the lasso
//
//	min_β ½ βᵀ W_NN β − s_Nᵀ β + Σ_{k∈N} ρ_jk |β_k|
//
// and sets w_{·j} = W_{·N} β for every other row. The lasso only involves
// the m×m block W_NN, so a k-nearest-neighbour graph costs O(m³ + n·m) per
// column instead of O(n²). Each lasso is solved exactly, warm-started from
// the previous sweep: by Cholesky when ρ = 0 on the column (Vβ = s), else
// by coordinate descent until the active set settles, finished by the
// feature-sign active-set method (Lee et al., NIPS 2006). After convergence
// Θⱼⱼ = 1/(Wⱼⱼ − w_Nⱼᵀβ) and Θ_Nⱼ = −β Θⱼⱼ; Θ is symmetrised by averaging,
// which keeps the zero pattern exact.
//
// Three additions to the paper's algorithm, all needed by DRILL's S = ŶŶᵀ/p
// (rank ≤ p < n, and nearly singular on neighbourhoods):
//
//   - Start. W = S (+ρI) may not be positive definite on a column's block.
//     Then Solve solves the problems with the diagonal target raised by δ,
//     from the feasible start S + δI, and lowers δ to 0 from solution to
//     solution (a homotopy); each stage is a feasible ascent, so W stays
//     positive definite. ErrNotPositiveDefinite means no positive definite
//     W meets the constraints (for instance ρ = 0, every pair allowed and
//     S singular; or two identical points joined by an edge with ρ = 0).
//   - Extrapolation. With ρ = 0 on a k-NN graph the sweeps converge
//     linearly and slowly (rate close to 1 on nearly singular S). Every 10
//     sweeps of slow progress, Solve tries W + α(W − W_old), α = 2, 4, …,
//     projected onto the constraints, and keeps the best if it increases
//     log det W: a valid dual ascent step that saves sweeps (about 3× on
//     the robot WiFi data). Settings.NoExtrapolation turns it off.
//   - Stopping and the Newton finish. The paper's rule, mean |ΔW| over a
//     sweep below Tol · mean_{i≠j}|Sᵢⱼ| (default Tol 1e-4), measures W's
//     change, not optimality: on DRILL's stick man (k = 6, ρ = 0) it
//     fires after 225 sweeps with max|WΘ − I| = 1.33, W 15 % from the
//     optimum, which the sweeps reach only after about 10⁴. (Solve also
//     keeps sweeping with a 4× tighter rule while the Θ assembled from the
//     columns is not positive definite.) Solve then finishes by Newton's
//     method on the support A = {allowed ij : Θᵢⱼ ≠ 0} the sweeps found,
//     with signs σ: maximise log det Θ − tr(TΘ) over Θ supported on A,
//     Tᵢⱼ = Sᵢⱼ + ρᵢⱼσᵢⱼ, Tᵢᵢ = Sᵢᵢ (+ρ) — a smooth problem, solved to
//     max|Wᵢⱼ − Tᵢⱼ| ≤ 1e-9·mean|Sᵢⱼ| with W = Θ⁻¹ in a few quadratically
//     convergent steps (newton.go). If the solution keeps the signs σ and
//     |Wᵢⱼ − Sᵢⱼ| ≤ ρᵢⱼ on the allowed pairs outside A, every KKT condition
//     holds and it is the optimum; for ρ = 0 this is Dempster's covariance
//     selection solved by Newton's method. If not, the sweeps continue
//     with a 10× tighter rule until max|WΘ − I| ≤ Settings.KKTTol
//     (default 1e-6) or the finish succeeds. Settings.KKTTol < 0 restores
//     the paper's rule alone.
package glasso
