// Package sdp is a small dense primal–dual interior-point solver for
// semidefinite programmes with sparse constraint matrices, written for
// maximum variance unfolding (Weinberger and Saul, "Unsupervised learning of
// image manifolds by semidefinite programming", 2004; the book's Chapter 5,
// §5.2) but general.
//
// # Problem
//
// The primal problem, with X an n×n symmetric matrix, is
//
//	minimise ⟨C, X⟩
//	s.t.     ⟨A_k, X⟩ = b_k,  k = 1..m,
//	         ⟨G_l, X⟩ ≤ h_l,  l = 1..p,
//	         X ⪰ 0,
//
// where ⟨A, X⟩ = tr(A X) = Σ_ij A_ij X_ij. Each inequality receives a slack
// s_l = h_l − ⟨G_l, X⟩ ≥ 0, so internally there are m + p equality rows.
// The dual is
//
//	maximise bᵀy + hᵀw
//	s.t.     Z = C − Σ_k y_k A_k − Σ_l w_l G_l ⪰ 0,  w ≤ 0.
//
// C, A_k and G_l are given sparsely as lists of entries (i, j, v), each
// setting both A_ij and A_ji.
//
// # Algorithm
//
// An infeasible-start primal–dual path-following method with the HKM search
// direction (Helmberg, Rendl, Vanderbei and Wolkowicz 1996; Kojima, Shindoh
// and Hara 1997; Monteiro 1997) and Mehrotra's predictor–corrector, in the
// form described for SDPT3 by Todd, Toh and Tütüncü ("On the Nesterov–Todd
// direction in semidefinite programming", 1998; "SDPT3 — a MATLAB software
// package", 1999) and used by CSDP (Borchers 1999), whose starting point we
// take. Each iteration forms the m×m Schur complement
//
//	M_ij = tr(A_i X A_j Z⁻¹)   (+ s_l/z_l on the diagonal of inequality rows),
//
// exploiting the sparsity of the A_k (a pair of sparse constraints costs
// nnz_i·nnz_j; a dense constraint forms X A_j Z⁻¹ once), factors it by
// Cholesky once, and solves it twice (predictor and corrector). The step to
// the boundary of the PSD cone is found from the smallest eigenvalue of
// L⁻¹ ΔX L⁻ᵀ with X = L Lᵀ (by the Lanczos method, to a relative 1e-9 of
// the spectral radius), and steps are shortened until the new X and Z
// have Cholesky factors. Internally, rank-one constraints u uᵀ
// (MVU's face-reduced form) enter as M_ij = (u_iᵀ X u_j)(u_jᵀ Z⁻¹ u_i),
// formed by matrix products.
//
// MVU's distance constraints, A = (e_a − e_b)(e_a − e_b)ᵀ, touch four
// entries of X, and get what CSDP (Borchers 1999) exploits and more: M is
// read off the n×m matrices X U and Z⁻¹ U (two rows of each per row of M,
// O(nm + m²)); once a full dual step has been taken, Z is kept equal to
// C − Aᵀ(y), so ΔZ = −Aᵀ(Δy) is sparse and X ΔZ Z⁻¹ costs one product
// instead of two. All dense products are of symmetric or triangular
// matrices and run on dimred's register-blocked A·Bᵀ kernel
// (internal/vec), skipping the zeros of triangular factors, and M's
// Cholesky factorisation is blocked and left-looking on the same kernel
// (dense.go). The dense work is split over Settings.Workers goroutines.
// Cost per iteration: O(m³/3 + n³) for MVU, plus Σ_ij nnz_i nnz_j for
// general sparse constraints.
//
// # Stopping rule
//
// The solver stops when all three relative measures are at most Tol:
//
//	primal infeasibility  ‖b − A(X) − s‖₂ / (1 + ‖b‖₂),
//	dual infeasibility    ‖C − Z − Aᵀ(y)‖_F / (1 + ‖C‖_F)  (slack rows included),
//	duality gap           max(|pobj − dobj|, ⟨X, Z⟩ + sᵀz) / (1 + |pobj| + |dobj|).
//
// Infeasibility is reported (ErrInfeasible, ErrUnbounded) when an iterate
// is an approximate Farkas certificate: bᵀy > 0 with ‖Aᵀ(y) + Z‖/bᵀy ≤ Tol
// (primal infeasible), or ⟨C, X⟩ < 0 with ‖A(X)‖/|⟨C, X⟩| ≤ Tol (dual
// infeasible, primal unbounded). The solver also stops, with
// ErrNotConverged and the last iterate, when the worst of the three measures
// has not improved by 10% in ten iterations. That is the signature of a
// problem with no strictly feasible point, whose dual multipliers grow
// without bound; Settings.Penalty (an ℓ1 exact penalty) or a reformulation on
// the smaller face (as MVU does) are the remedies.
//
// The solver is meant for the problem sizes of the book (n ≲ 300 points,
// m ≲ 2000 constraints); memory is O(n² + m²).
package sdp
