// Package vec holds the few vector kernels on which dimred's dense
// matrix–vector products spend their time, written for AVX2 with fused
// multiply–add where the processor has it (detected at start-up) and in
// plain Go otherwise or under the noasm build tag.
//
// gonum's own kernels (floats.Dot, floats.AddScaled) use two-wide SSE2
// instructions, which leave a symmetric matrix–vector product compute
// bound at about half the speed of an optimised BLAS dgemv on the same
// matrix. The products here are the ones Lanczos repeats tens of times —
// the stored upper triangle of a kernel or distance matrix times a block
// of vectors — so they are worth four-wide FMA code; everything else stays
// on gonum.
//
// The results differ from a sequential sum only by the order of the
// additions (sixteen partial sums, combined in a fixed order) and by
// the single rounding of a fused multiply–add, so they are
// deterministic on a given machine.
package vec
