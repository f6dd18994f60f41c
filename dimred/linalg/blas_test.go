//go:build !openblas

package linalg

import (
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/blas/gonum"
	"gonum.org/v1/gonum/blas/testblas"
)

// Importing linalg leaves gonum's process-wide BLAS alone (its init used
// to install fastBLAS with blas64.Use); UseFastBLAS installs it.
func TestImportKeepsGlobalBLAS(t *testing.T) {
	if impl, ok := blas64.Implementation().(gonum.Implementation); !ok {
		t.Fatalf("after importing linalg the process's BLAS is %T, want gonum.Implementation", blas64.Implementation())
	} else {
		defer blas64.Use(impl)
	}
	UseFastBLAS()
	if got, want := blas64.Implementation(), dimredBLAS(); got != want {
		t.Errorf("after UseFastBLAS the process's BLAS is %T, want %T", got, want)
	}
}

// kernelBLAS is fastBLAS with the vector kernel on every well-formed call,
// however small, so that gonum's conformance cases exercise it.
type kernelBLAS struct{ fastBLAS }

func (f kernelBLAS) Dgemm(tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	f.dgemm(0, tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// gonum's own Dgemm conformance suite (blas/testblas, which gonum's
// blas/gonum tests run) on the replacement: as installed (its cases fall
// below the kernel's threshold, so this tests the routing and fallback),
// and with the kernel forced on every call.
func TestFastBLASTestblas(t *testing.T) {
	t.Run("as installed", func(t *testing.T) { testblas.TestDgemm(t, fastBLAS{}) })
	t.Run("kernel always", func(t *testing.T) { testblas.TestDgemm(t, kernelBLAS{}) })
}
