package dimred

import (
	"context"
	"fmt"
	"math"
	"sort"

	"github.com/dimredbook/book/dimred/internal/dense"
	"github.com/dimredbook/book/dimred/internal/errs"

	"gonum.org/v1/gonum/mat"
)

// missGroup is the set of data columns sharing one pattern of observed
// rows: the columns are independent given X, so a column observed on the
// rows R contributes log N(y_R | 0, K_RR + σ²I) — its missing entries are
// marginalised exactly.
type missGroup struct {
	rows []int      // observed rows, ascending
	y    *mat.Dense // |rows|×|cols| centred observed values
}

// FitMissing fits the exact GP-LVM to Y with missing entries marked by
// NaN. Each column is a Gaussian process observed on its own rows, so the
// likelihood is
//
//	log p(Y | X) = Σ_d log N(y_{R_d, d} | 0, K_{R_d R_d} + σ²I),
//
// the missing entries marginalised exactly (Lawrence 2005 §7 notes the
// same). Columns with the same set of observed rows R share one
// factorisation, so the cost per iteration is O(Σ_patterns |R|³): cheap
// for a few patterns, up to O(pn³) when every column has its own. Columns
// are centred by their observed means; the PCA start fills the missing
// entries with those means. Inf is an error (ErrNaN), as are a column or a
// row with no observed entry (ErrTooFewPoints). FitMissing panics when
// Inducing > 0 (the sparse bound is for complete data). Otherwise it is Fit.
func (m *GPLVM) FitMissing(Y mat.Matrix) error {
	return m.FitMissingContext(context.Background(), Y)
}

// FitMissingContext is FitMissing under ctx (see FitContext).
func (m *GPLVM) FitMissingContext(ctx context.Context, Y mat.Matrix) (err error) {
	defer discardOnError(&err, &m.fit)
	checkSettings("GPLVM", m)
	if m.Inducing != 0 {
		panic("dimred: GPLVM.FitMissing: the sparse model (Inducing > 0) needs complete data")
	}
	n, p := Y.Dims()
	if err := checkLatentDim("GPLVM", m.Q, n, p); err != nil {
		return err
	}
	yd := dense.AsDense(Y)
	mu := make([]float64, p)
	obsRows := make([][]int, p)
	rowSeen := make([]bool, n)
	for j := range p {
		var s float64
		for i := range n {
			v := yd.At(i, j)
			if math.IsInf(v, 0) {
				return fmt.Errorf("%w: GPLVM: Y[%d,%d] = %v", ErrNaN, i, j, v)
			}
			if !math.IsNaN(v) {
				s += v
				obsRows[j] = append(obsRows[j], i)
				rowSeen[i] = true
			}
		}
		if len(obsRows[j]) == 0 {
			return fmt.Errorf("%w: GPLVM: column %d of Y has no observed entry", ErrTooFewPoints, j)
		}
		mu[j] = s / float64(len(obsRows[j]))
	}
	for i, ok := range rowSeen {
		if !ok {
			return fmt.Errorf("%w: GPLVM: row %d of Y has no observed entry", ErrTooFewPoints, i)
		}
	}
	// Mean-filled data for the start (and the back-constraint kernel).
	filled := mat.NewDense(n, p, nil)
	filled.Apply(func(i, j int, v float64) float64 {
		if math.IsNaN(v) {
			return mu[j]
		}
		return v
	}, yd)
	// Group the columns by their observed rows.
	byKey := map[string][]int{}
	var keys []string
	for j := range p {
		k := fmt.Sprint(obsRows[j])
		if _, ok := byKey[k]; !ok {
			keys = append(keys, k)
		}
		byKey[k] = append(byKey[k], j)
	}
	sort.Strings(keys)
	var groups []missGroup
	for _, k := range keys {
		cols := byKey[k]
		rows := obsRows[cols[0]]
		g := missGroup{rows: rows, y: mat.NewDense(len(rows), len(cols), nil)}
		for a, i := range rows {
			for b, j := range cols {
				g.y.Set(a, b, yd.At(i, j)-mu[j])
			}
		}
		groups = append(groups, g)
	}
	if err := errs.CheckFinite(filled, "Y"); err != nil {
		return errs.Wrap(err, "GPLVM")
	}
	return m.fitPrepared(ctx, filled, groups)
}

// exactLogLikMissing is exactLogLik for grouped columns: the sum over
// groups of log N(Y_g | 0, K_RR + σ²I), with G_RR += ½(α_gα_gᵀ − p_g K_RR⁻¹).
func (f *gplvmFit) exactLogLikMissing(dX *mat.Dense, gTheta []float64, wantGrad bool) (ll, gLogS2 float64, err error) {
	n := f.n
	var K mat.SymDense
	f.kern.GramTo(&K, f.x)
	for i := range n {
		K.SetSym(i, i, K.At(i, i)+f.sigma2)
	}
	var G *mat.SymDense
	if wantGrad {
		G = mat.NewSymDense(n, nil)
	}
	for gi, g := range f.groups {
		r := len(g.rows)
		_, pg := g.y.Dims()
		Kg := mat.NewSymDense(r, nil)
		for a, i := range g.rows {
			for b := a; b < r; b++ {
				Kg.SetSym(a, b, K.At(i, g.rows[b]))
			}
		}
		var ch mat.Cholesky
		if !ch.Factorize(Kg) {
			return 0, 0, fmt.Errorf("%w: GPLVM covariance of missing-data pattern %d is not positive definite", ErrSingular, gi)
		}
		alpha := mat.NewDense(r, pg, nil)
		if err := illConditioned(ch.SolveTo(alpha, g.y)); err != nil {
			return 0, 0, fmt.Errorf("%w: GPLVM: %v", ErrSingular, err)
		}
		var tr float64
		ad, yd := alpha.RawMatrix().Data, g.y.RawMatrix().Data
		for i := range ad {
			tr += ad[i] * yd[i]
		}
		ll += -0.5*float64(pg)*ch.LogDet() - 0.5*tr - 0.5*float64(r*pg)*math.Log(2*math.Pi)
		if !wantGrad {
			continue
		}
		var kinv mat.SymDense
		if err := illConditioned(ch.InverseTo(&kinv)); err != nil {
			return 0, 0, fmt.Errorf("%w: GPLVM: %v", ErrSingular, err)
		}
		aat := mat.NewSymDense(r, nil)
		aat.SymOuterK(0.5, alpha)
		for a, i := range g.rows {
			for b := a; b < r; b++ {
				j := g.rows[b]
				G.SetSym(i, j, G.At(i, j)+aat.At(a, b)-0.5*float64(pg)*kinv.At(a, b))
			}
		}
	}
	if math.IsNaN(ll) || math.IsInf(ll, 0) {
		return 0, 0, fmt.Errorf("%w: GPLVM log-likelihood %v", ErrOverflow, ll)
	}
	if !wantGrad {
		return ll, 0, nil
	}
	f.kern.ParamGrad(gTheta, G, f.x)
	f.kern.CrossGrad(nil, dX, dX, G, f.x, f.x)
	var trG float64
	for i := range n {
		trG += G.At(i, i)
	}
	return ll, f.sigma2 * trG, nil
}
