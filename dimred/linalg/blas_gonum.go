//go:build !openblas

package linalg

// BLASImplementation describes the BLAS this build uses: gonum's pure-Go
// BLAS by default, the system OpenBLAS when built with -tags openblas (see
// blas_openblas.go; Debian's libopenblas-dev provides it).
func BLASImplementation() string { return "gonum pure Go (gonum.org/v1/gonum/blas/gonum)" }
