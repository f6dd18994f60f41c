package linalg

import (
	"runtime"

	"github.com/dimredbook/book/dimred/internal/dense"
	"github.com/dimredbook/book/dimred/internal/parallel"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// Gram stores the n×n Gram matrix Y Yᵀ of the n×p matrix Y in dst, whose
// size must already be n×n (it panics with mat.ErrShape otherwise). The triangle is cut into tiles that are filled in parallel, the
// diagonal tiles by dsyrk and the others by dgemm, so the O(n²p) product
// uses every core (gonum's dsyrk alone is single-threaded).
func Gram(dst *mat.SymDense, Y mat.Matrix) {
	n, p := Y.Dims()
	if dst == nil {
		panic(dense.NilDst)
	}
	if dst.SymmetricDim() != n {
		panic(mat.ErrShape)
	}
	yd, ok := Y.(*mat.Dense)
	if !ok {
		yd = mat.DenseCopyOf(Y)
	}
	yr := yd.RawMatrix()
	g := dst.RawSymmetric()
	if n == 0 {
		return
	}
	if p == 0 {
		for i := 0; i < n; i++ {
			row := g.Data[i*g.Stride+i : i*g.Stride+n]
			for j := range row {
				row[j] = 0
			}
		}
		return
	}
	const tile = 256
	nt := (n + tile - 1) / tile
	type job struct{ it, jt int }
	var jobs []job
	for it := 0; it < nt; it++ {
		for jt := it; jt < nt; jt++ {
			jobs = append(jobs, job{it, jt})
		}
	}
	rows := func(t int) blas64.General {
		lo, hi := t*tile, min(n, (t+1)*tile)
		return blas64.General{Rows: hi - lo, Cols: p, Stride: yr.Stride, Data: yr.Data[lo*yr.Stride:]}
	}
	// Deal the tiles out round-robin so each core gets a mix of diagonal
	// and off-diagonal work.
	w := min(runtime.GOMAXPROCS(0), len(jobs))
	if n*n*p/2 < parallel.Grain { // flops of the upper triangle
		w = 1
	}
	parallel.Do(w, func(t int) {
		for x := t; x < len(jobs); x += w {
			jb := jobs[x]
			i0, j0 := jb.it*tile, jb.jt*tile
			A := rows(jb.it)
			if jb.it == jb.jt {
				syrkUpperSerial(A, blas64.General{Rows: A.Rows, Cols: A.Rows, Stride: g.Stride, Data: g.Data[i0*g.Stride+i0:]})
				continue
			}
			B := rows(jb.jt)
			gemmNTSerial(1, A, B, 0, blas64.General{Rows: A.Rows, Cols: B.Rows, Stride: g.Stride, Data: g.Data[i0*g.Stride+j0:]})
		}
	})
}
