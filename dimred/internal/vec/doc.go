// Package vec holds the few vector kernels on which dimred spends its
// time, written in Go assembly for AVX2 with fused multiply–add (and
// AVX-512 for GemmNT) where the processor has them — detected at start-up
// through golang.org/x/sys/cpu — and in plain Go otherwise or under the
// noasm build tag. The dimred_noasm tag turns off these kernels alone,
// leaving gonum's (SSE2, the same on every amd64 processor) in place: a
// build that computes as dimred does on a processor without AVX2, which
// the bit-reproducibility tests use.
//
// gonum's own kernels (floats.Dot, floats.AddScaled, its pure-Go Dgemm)
// use two-wide SSE2 instructions, which leave the products below compute
// bound at a fraction of the speed of an optimised BLAS. The kernels here
// are the ones the methods repeat: the symmetric triangle product of
// Lanczos on kernel and distance matrices (DotAxpy, DotAxpy2), the inner
// products of Gram and distance matrices and of the brute-force neighbour
// search (GemmNT, Dot, and Transpose for the copies that bring a product
// to GemmNT's form; DistStrips, the search's distances fused with its
// tests on AVX-512), the RBF kernel's exponential (ScaledExp) and the
// checks and reductions of one pass over a matrix (MaxAbs, MaxNonNeg,
// SumAdd, AddSqDiff, Axpy). Everything else stays on gonum.
//
// Rounding. The results differ from a sequential sum only by the order of
// the additions (a fixed number of partial sums combined in a fixed order)
// and by the single rounding of a fused multiply–add, so they are
// deterministic on a given machine. GemmNT goes further: every entry is
// summed in one order whatever the instruction set (dot8's), so its
// products are bit-identical on every amd64 processor; the other kernels'
// plain-Go versions, used only without AVX2, sum in textbook order.
package vec
