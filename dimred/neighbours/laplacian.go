package neighbours

import (
	"fmt"
	"math"

	"github.com/dimredbook/book/dimred/linalg"
)

// Laplacian returns the graph Laplacian L = D − W of the symmetric weight
// matrix W, D = diag(d), d_i = Σ_j W_ij (book Ch. 5; spectral paper eq. for
// Laplacian eigenmaps). L is positive semi-definite with L 1 = 0; its
// smallest eigenvalue is zero once per connected component.
func Laplacian(w *linalg.CSR) *linalg.CSR {
	return laplacian(w, false)
}

// NormalisedLaplacian returns the symmetric normalised Laplacian
// L_sym = I − D^{-1/2} W D^{-1/2}, whose eigenvectors v give the generalised
// eigenvectors D^{-1/2} v of L u = λ D u. A point of zero (or negative, or
// NaN) degree has no D^{-1/2}: the error wraps ErrDisconnected and names the
// point (remove isolated points first; ConnectedComponents finds them).
func NormalisedLaplacian(w *linalg.CSR) (*linalg.CSR, error) {
	for i, di := range w.RowSums() {
		switch {
		case math.IsNaN(di) || math.IsInf(di, 0):
			return nil, fmt.Errorf("%w: point %d has degree %v", ErrNaN, i, di)
		case !(di > 0):
			return nil, fmt.Errorf("%w: point %d has degree %v, so D^{-1/2} does not exist; remove isolated points first", ErrDisconnected, i, di)
		}
	}
	return laplacian(w, true), nil
}

func laplacian(w *linalg.CSR, normalised bool) *linalg.CSR {
	n := w.N
	d := w.RowSums()
	s := make([]float64, n)
	if normalised {
		for i, di := range d {
			s[i] = 1 / math.Sqrt(di)
		}
	}
	out := &linalg.CSR{N: n, RowPtr: make([]int, n+1)}
	out.Col = make([]int, 0, w.NNZ()+n)
	out.Val = make([]float64, 0, w.NNZ()+n)
	for i := 0; i < n; i++ {
		cols, vals := w.Row(i)
		diag := d[i]
		if normalised {
			diag = 1
		}
		placed := false
		for t, j := range cols {
			if !placed && j >= i {
				if j == i {
					v := vals[t]
					if normalised {
						v *= s[i] * s[i]
					}
					out.Col = append(out.Col, i)
					out.Val = append(out.Val, diag-v)
					placed = true
					continue
				}
				out.Col = append(out.Col, i)
				out.Val = append(out.Val, diag)
				placed = true
			}
			v := -vals[t]
			if normalised {
				v *= s[i] * s[j]
			}
			out.Col = append(out.Col, j)
			out.Val = append(out.Val, v)
		}
		if !placed {
			out.Col = append(out.Col, i)
			out.Val = append(out.Val, diag)
		}
		out.RowPtr[i+1] = len(out.Col)
	}
	return out
}
