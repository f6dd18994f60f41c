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
//   - An iterative EigenAuto run that does not converge falls back to the
//     dense solver when n ≤ 1000.
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
	// used: the crossover of the hardest case for a Krylov method, a
	// random symmetric matrix with no spectral gap (kernel and distance
	// matrices with decaying spectra cross over at about half of it).
	DenseMax = 200

	// FullSpectrumMax is the largest n for which computing every
	// eigenvalue (not only the k used) densely stays cheap (well under a
	// second); callers ask for the full spectrum explicitly.
	FullSpectrumMax = 500

	autoDenseFallback = 1000
	chebMinN          = 500
)

// PreferDense reports whether k eigenpairs (or singular triplets) of an
// n×n problem are computed by a dense factorisation rather than by an
// iterative partial solver: n ≤ DenseMax, or k > n/10 (many pairs, for
// which a Krylov basis would approach n anyway).
func PreferDense(n, k int) bool {
	return n <= DenseMax || 10*k > n
}
