package glasso

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// KKT reports how well a solution meets the optimality conditions (see the
// package documentation). All quantities are absolute, in the units of S;
// Scale gives the unit used by the stopping rule.
type KKT struct {
	// Edge is the largest violation on allowed off-diagonal pairs:
	// |Wᵢⱼ − Sᵢⱼ − ρᵢⱼ sign(Θᵢⱼ)| where Θᵢⱼ ≠ 0, max(0, |Wᵢⱼ − Sᵢⱼ| − ρᵢⱼ)
	// where Θᵢⱼ = 0.
	Edge float64
	// Diagonal is max |Wᵢᵢ − Sᵢᵢ − ρ| (ρ = 0 if the diagonal is not
	// penalised).
	Diagonal float64
	// OffGraph is max |Θᵢⱼ| over pairs outside the graph (zero by
	// construction).
	OffGraph float64
	// Inverse is max |WΘ − I|.
	Inverse float64
	// Scale is mean_{i≠j} |Sᵢⱼ|.
	Scale float64
}

// finish fills W, the objective, the edge count and the KKT report.
func (s *solver) finish(theta *mat.SymDense, iters int) (*Result, error) {
	n := s.n
	W := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			W.SetSym(i, j, s.w[i*n+j])
		}
	}
	res := &Result{Theta: theta, W: W, Iterations: iters}
	res.KKT.Scale = s.scale

	// allowed[j] marks the neighbours of the current row.
	allowed := make([]int, n)
	for i := range allowed {
		allowed[i] = -1
	}
	var pen float64
	for i := 0; i < n; i++ {
		for a, j := range s.nb[i] {
			allowed[j] = a
		}
		for j := 0; j < n; j++ {
			t := theta.At(i, j)
			if j == i {
				res.KKT.Diagonal = max(res.KKT.Diagonal, math.Abs(s.w[i*n+i]-s.s[i*n+i]-s.diagRho))
				pen += s.diagRho * math.Abs(t)
				continue
			}
			a := allowed[j]
			if a < 0 {
				res.KKT.OffGraph = max(res.KKT.OffGraph, math.Abs(t))
				continue
			}
			if j > i && t != 0 {
				res.Edges++
			}
			rho := s.rho[i][a]
			pen += rho * math.Abs(t)
			d := s.w[i*n+j] - s.s[i*n+j]
			var v float64
			if t != 0 {
				v = math.Abs(d - rho*math.Copysign(1, t))
			} else {
				v = max(0, math.Abs(d)-rho)
			}
			res.KKT.Edge = max(res.KKT.Edge, v)
		}
		for _, j := range s.nb[i] {
			allowed[j] = -1
		}
	}

	// WΘ − I, using the sparsity of Θ on a graph.
	tf := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			tf[i*n+j] = theta.At(i, j)
			tf[j*n+i] = tf[i*n+j]
		}
	}
	if s.allPair {
		var p mat.Dense
		p.Mul(mat.NewDense(n, n, s.w), mat.NewDense(n, n, tf))
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				v := p.At(i, j)
				if i == j {
					v--
				}
				res.KKT.Inverse = max(res.KKT.Inverse, math.Abs(v))
			}
		}
	} else {
		for j := 0; j < n; j++ {
			cols := append([]int{j}, s.nb[j]...)
			for i := 0; i < n; i++ {
				var v float64
				row := s.w[i*n:]
				for _, k := range cols {
					v += row[k] * tf[k*n+j]
				}
				if i == j {
					v--
				}
				res.KKT.Inverse = max(res.KKT.Inverse, math.Abs(v))
			}
		}
	}

	var ch mat.Cholesky
	if !ch.Factorize(theta) {
		return nil, fmt.Errorf("%w: the precision estimate Θ", ErrNotPositiveDefinite)
	}
	var tr float64
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			tr += s.s[i*n+j] * tf[i*n+j]
		}
	}
	res.Objective = ch.LogDet() - tr - pen
	if math.IsNaN(res.Objective) || math.IsInf(res.Objective, 0) {
		return nil, fmt.Errorf("%w: objective %v", ErrNaN, res.Objective)
	}
	return res, nil
}
