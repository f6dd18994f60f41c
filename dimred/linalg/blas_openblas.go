//go:build openblas

package linalg

// Built with -tags openblas, the gonum BLAS calls of the process (mat.Dense
// products, the blas64 calls of dimred's tiled kernels) that carry more
// than about a megaflop go to the system OpenBLAS through cgo
// (gonum.org/v1/netlib/blas/netlib); smaller ones stay on gonum's pure-Go
// routines, which are faster than waking OpenBLAS's threads for them
// (hybridBLAS). The build
// needs a C compiler and the library with its headers (Debian:
// libopenblas-dev). Without the tag dimred uses gonum's pure-Go BLAS and
// builds everywhere.

/*
#cgo LDFLAGS: -lopenblas
char *openblas_get_config(void);
char *openblas_get_corename(void);
*/
import "C"

import "gonum.org/v1/gonum/blas"

// dimredBLAS is the BLAS of dimred's own products in this build: OpenBLAS
// for calls with real work, gonum's for small ones (hybridBLAS). It becomes
// the process's gonum BLAS only through UseFastBLAS.
func dimredBLAS() blas.Float64 { return hybridBLAS{} }

// gemmBlockBLAS is the BLAS of a block of a product of the given flops
// (see gemmBlock): OpenBLAS or gonum's by the whole product's work. The
// openblas build makes no claim of bits across processors.
func gemmBlockBLAS(flops float64) blas.Float64 {
	if big(flops) {
		return ob
	}
	return pure
}

// BLASImplementation describes the BLAS this build uses: here OpenBLAS,
// with its build configuration and the kernel it selected for this
// processor (OpenBLAS reads OPENBLAS_CORETYPE at start-up).
func BLASImplementation() string {
	return C.GoString(C.openblas_get_config()) + " (kernel " + C.GoString(C.openblas_get_corename()) + "; calls under 1 MFlop on gonum's pure Go)"
}

// gramFusedMaxBlock: see blas_gonum.go. OpenBLAS's matrix products beat the
// fused pure-Go pass from a handful of vectors on.
const gramFusedMaxBlock = 4
