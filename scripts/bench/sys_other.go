//go:build !unix

package main

import "errors"

func reexec() error {
	return errors.New("-threads needs a re-executable process (unix); set GOMAXPROCS, OMP_NUM_THREADS, OPENBLAS_NUM_THREADS, MKL_NUM_THREADS and NUMBA_NUM_THREADS yourself")
}

func cpuSeconds() float64 { return 0 }
