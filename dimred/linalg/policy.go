package linalg

// The package's one dense-versus-iterative policy. Every solver that can
// either factorise a matrix densely (O(n³), all eigenpairs) or run an
// iterative partial method (a few tens of O(n²) or O(nnz) products for the
// end of a spectrum) decides with the rules below: EigenSym and EigenSymOp
// under EigenAuto, TruncatedSVD under SVDAuto, and the methods of package
// dimred (PCA, KernelPCA, ClassicalMDS) that choose between the two.
// Measurements behind the numbers are in bench_test.go
// (BenchmarkEigenCrossover, BenchmarkEigenLaplacianBottom3).
//
//   - k eigenpairs (or singular triplets) of an n×n problem are computed
//     densely when PreferDense(n, k): n ≤ DenseMax or k > n/10.
//   - An iterative EigenAuto run on a dense (not *CSR) operator with
//     n ≤ 1000 gets a budget of DenseEquivalentProducts(n) products, about
//     the cost of the dense solve, unless EigenSettings.MaxProducts is set;
//     a run that does not converge in it (or at all) falls back to the
//     dense solver when n ≤ 1000. The cost is then at most about twice the
//     dense one at any n, which is what makes a small DenseMax safe for
//     matrices without a spectral gap (the Krylov method's hard case).
//   - A sparse *CSR with n ≥ 500 and k ≤ n/20 is solved by Lanczos on a
//     Chebyshev filter; below that plain Lanczos is as fast (bottom three
//     pairs of the swiss roll's normalised Laplacian, k = 10 neighbours:
//     5.7 against 6.2 ms at n = 400, 8.9 against 7.6 ms at n = 500, 25
//     against 16 ms at n = 1000, plain against filtered).
//   - The whole spectrum (ClassicalMDS's negative eigenvalues) is computed
//     only on request (ClassicalMDS.FullSpectrum), never as a side effect
//     of a small n: a dense solve at n = 500 costs ~100× the partial one.
//     FullSpectrumMax is the size up to which such a request is cheap.
const (
	// DenseMax is the largest n for which the dense solver is always
	// used: the size of the default Krylov basis (k + 48 vectors), below
	// which a Krylov method would span the whole space. It was 200, the
	// crossover of the hardest case for a Krylov method (a random
	// symmetric matrix with no spectral gap), which made n = 200 a cliff
	// for the common case (one thread, top 2: ClassicalMDS of the swiss
	// roll 21 ms at n = 200, 0.76 ms at n = 201; an RBF kernel PCA 13 ms
	// against 1.5 ms; BenchmarkLadderClassicalMDS, BenchmarkLadderKernelPCA).
	// The hard case is now bounded by the product budget and the dense
	// fallback instead.
	DenseMax = 50

	// FullSpectrumMax is the largest n for which computing every
	// eigenvalue (not only the k used) densely stays cheap (well under a
	// second); callers ask for the full spectrum explicitly.
	FullSpectrumMax = 500

	autoDenseFallback = 1000
	chebMinN          = 500
)

// DenseEquivalentProducts is the budget of operator products (n×n dense
// operator, 2n² flops each plus the Krylov basis's orthogonalisation)
// that costs about as much as the dense eigendecomposition, ≈ 9n³ flops
// (tridiagonalisation, accumulation and QR iterations; Golub & Van Loan,
// "Matrix Computations", §8.3): 4n, and never fewer than 300 (a Krylov
// run's usual need for a few pairs, so that small problems with a decaying
// spectrum are not sent to the dense solver for want of products).
func DenseEquivalentProducts(n int) int { return max(300, 4*n) }

// PreferDense reports whether k eigenpairs (or singular triplets) of an
// n×n problem are computed by a dense factorisation rather than by an
// iterative partial solver: n ≤ DenseMax, or k > n/10 (many pairs, for
// which a Krylov basis would approach n anyway).
func PreferDense(n, k int) bool {
	return n <= DenseMax || 10*k > n
}
