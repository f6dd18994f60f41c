// Package linalg is the numerical core of dimred: the linear algebra that
// Go lacks and every dimensionality-reduction method needs.
//
//   - A partial symmetric eigensolver for a few eigenpairs at one end of the
//     spectrum: EigenSym for matrices and EigenSymOp for any SymOperator
//     (DenseOperator, CentredDenseOperator, the sparse CSR type, or
//     implicit operators such as DoubleCentred, which applies −½ H A H
//     without forming H). Small problems use gonum's dense mat.EigenSym,
//     larger ones thick-restart block Lanczos with full
//     reorthogonalisation, and the smallest pairs of large sparse matrices
//     (graph Laplacians) Lanczos on a Chebyshev polynomial filter.
//   - TruncatedSVD: exact through the eigensolver, or the randomized range
//     finder of Halko, Martinsson & Tropp (2011).
//   - Distances and Gram products (SquaredDistances,
//     PairwiseSquaredDistances, Gram), column statistics and centring
//     (ColumnMeans, ColumnVariances, CentreColumns, Standardise,
//     DoubleCentre), orthonormalisation and subspace angles.
//
// Work that parallelises (tiled products, Gram matrices, sparse products)
// is spread over GOMAXPROCS goroutines. Eigenvectors have a fixed sign:
// the entry of largest magnitude is positive (FixSigns).
//
// One policy decides between dense and iterative solvers everywhere
// (PreferDense, DenseMax, FullSpectrumMax); data of extreme scale are
// rescaled by a power of two where a product would overflow although the
// result is representable (UnitScale).
//
// Errors follow dimred's rule: a NaN or Inf in the input, or in an
// operator's product, is returned as an error wrapping ErrNaN; an overflow
// of a result computed from finite input as ErrOverflow; an
// eigensolver that runs out of iterations as a *NotConvergedError wrapping
// ErrNotConverged; wrong shapes and impossible arguments panic. The
// helpers without an error result (ColumnMeans, ColumnVariances,
// CentreColumns, Standardise, DoubleCentre, SquaredDistances,
// PairwiseSquaredDistances) follow gonum's rule instead: NaN in, NaN out,
// and callers validate.
package linalg
