//go:build !openblas

package linalg

import "github.com/dimredbook/book/dimred/internal/vec"

// BLASImplementation describes the BLAS of dimred's own products in this
// build (and of the whole process after UseFastBLAS): gonum's pure-Go BLAS
// by default, with large Dgemm calls on dimred's vector kernels where the
// processor has them (fastBLAS), or the system OpenBLAS when built with
// -tags openblas (see blas_openblas.go; Debian's libopenblas-dev provides
// it).
func BLASImplementation() string {
	if vec.HasGemmKernel() {
		return "gonum pure Go (gonum.org/v1/gonum/blas/gonum), Dgemm above 2 MFlop on dimred's " + vec.KernelName() + " kernel"
	}
	return "gonum pure Go (gonum.org/v1/gonum/blas/gonum)"
}

// gramFusedMaxBlock is the largest block that the Gram operators apply in
// one fused pass over A (see fusedGramTo); larger blocks go through two
// matrix products. With the pure-Go BLAS the fused pass wins up to blocks
// of 16 (randomized PCA's q + 10); with OpenBLAS only for the few vectors
// of a Lanczos block, where a product runs at matrix–vector speed.
const gramFusedMaxBlock = 16
