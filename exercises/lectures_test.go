package exercises

import (
	"math"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/dimredbook/book/datasets"
	"gonum.org/v1/gonum/mat"
)

// Every lecture exercise with a checkable answer: the computation a
// student would do (written here with gonum alone, independently of the
// registered Want), and the typical wrong one with the reason the check
// must give.
func TestLectureAnswers(t *testing.T) {
	ids := map[string]bool{}
	for _, id := range IDs() {
		if strings.HasPrefix(id, "L") {
			ids[id] = true
		}
	}
	for _, tc := range lectureCases() {
		delete(ids, tc.id)
		t.Run(tc.id, func(t *testing.T) {
			right, wrong, err := tc.compute()
			if err != nil {
				if datasets.Skippable(err) {
					t.Skip(err)
				}
				t.Fatal(err)
			}
			if ok, why := Verdict(tc.id, right); !ok {
				t.Errorf("the right computation is rejected: %s", why)
			}
			ok, why := Verdict(tc.id, wrong)
			if ok || !strings.Contains(why, tc.reason) {
				t.Errorf("%s: verdict %v, %q; want rejected, with %q", tc.mistake, ok, why, tc.reason)
			}
		})
	}
	for id := range ids {
		t.Errorf("exercise %s is registered but not tested here", id)
	}
}

type lectureCase struct {
	id, mistake, reason string
	compute             func() (right, wrong any, err error)
}

// eigenDesc returns all eigenvalues (descending) and eigenvectors of the
// covariance S = n⁻¹ŶᵀŶ of Y, by gonum's dense solver, and Ŷ.
func eigenDesc(Y mat.Matrix) ([]float64, *mat.Dense, *mat.Dense) {
	n, p := Y.Dims()
	Yc := mat.DenseCopyOf(Y)
	for j := 0; j < p; j++ {
		m := 0.0
		for i := 0; i < n; i++ {
			m += Yc.At(i, j)
		}
		m /= float64(n)
		for i := 0; i < n; i++ {
			Yc.Set(i, j, Yc.At(i, j)-m)
		}
	}
	S := mat.NewSymDense(p, nil)
	S.SymOuterK(1/float64(n), Yc.T())
	var es mat.EigenSym
	es.Factorize(S, true)
	vals := es.Values(nil)
	var V mat.Dense
	es.VectorsTo(&V)
	// gonum's order is ascending: reverse.
	R := mat.NewDense(p, p, nil)
	out := make([]float64, p)
	for k := 0; k < p; k++ {
		out[k] = vals[p-1-k]
		R.SetCol(k, mat.Col(nil, p-1-k, &V))
	}
	return out, R, Yc
}

func sum(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s
}

func lectureCases() []lectureCase {
	usps := func() (*mat.Dense, error) {
		ds, err := datasets.USPS("train")
		if err != nil {
			return nil, err
		}
		return ds.Y, nil
	}
	// The USPS eigendecomposition, once for the five cases that use it.
	var (
		uOnce   sync.Once
		uVals   []float64
		uR, uYc *mat.Dense
		uErr    error
	)
	uspsEigen := func() ([]float64, *mat.Dense, *mat.Dense, error) {
		uOnce.Do(func() {
			var Y *mat.Dense
			if Y, uErr = usps(); uErr == nil {
				uVals, uR, uYc = eigenDesc(Y)
			}
		})
		return uVals, uR, uYc, uErr
	}
	oil := func() (*mat.Dense, error) {
		ds, err := datasets.Oil("train")
		if err != nil {
			return nil, err
		}
		return ds.Y, nil
	}
	roadB := func() ([]float64, error) {
		d, err := datasets.EuropeRoads(datasets.Cities48)
		if err != nil {
			return nil, err
		}
		n := d.D.SymmetricDim()
		H := mat.NewDense(n, n, nil)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				H.Set(i, j, -1/float64(n))
			}
			H.Set(i, i, 1-1/float64(n))
		}
		D2 := mat.NewDense(n, n, nil)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				D2.Set(i, j, d.D.At(i, j)*d.D.At(i, j))
			}
		}
		var B mat.Dense
		B.Product(H, D2, H)
		B.Scale(-0.5, &B)
		Bs := mat.NewSymDense(n, nil)
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				Bs.SetSym(i, j, (B.At(i, j)+B.At(j, i))/2)
			}
		}
		var es mat.EigenSym
		es.Factorize(Bs, false)
		vals := es.Values(nil)
		sort.Sort(sort.Reverse(sort.Float64Slice(vals)))
		return vals, nil
	}
	return []lectureCase{
		{"L1.1", "the n − 1 covariance", "n against n−1", func() (any, any, error) {
			vals, _, Yc, err := uspsEigen()
			if err != nil {
				return nil, nil, err
			}
			n, _ := Yc.Dims()
			return vals[0], vals[0] * float64(n) / float64(n-1), nil
		}},
		{"L1.2", "the mean over n − 1", "n against n−1", func() (any, any, error) {
			_, R, Yc, err := uspsEigen()
			if err != nil {
				return nil, nil, err
			}
			n, p := Yc.Dims()
			Rq := R.Slice(0, p, 0, 10)
			var X, res mat.Dense
			X.Mul(Yc, Rq)
			res.Mul(&X, Rq.T())
			res.Sub(Yc, &res)
			e := mat.Norm(&res, 2)
			return e * e / float64(n), e * e / float64(n-1), nil
		}},
		{"L1.3", "the course notes' √λ", "constant factor", func() (any, any, error) {
			vals, _, Yc, err := uspsEigen()
			if err != nil {
				return nil, nil, err
			}
			var svd mat.SVD
			svd.Factorize(Yc, mat.SVDNone)
			wrong := make([]float64, 5)
			for k := range wrong {
				wrong[k] = math.Sqrt(vals[k])
			}
			return svd.Values(nil)[:5], wrong, nil
		}},
		{"L1.4", "dividing by the singular values (the course notes' whitening)", "constant factor", func() (any, any, error) {
			vals, R, Yc, err := uspsEigen()
			if err != nil {
				return nil, nil, err
			}
			n, p := Yc.Dims()
			var X mat.Dense
			X.Mul(Yc.Slice(0, 5, 0, p), R.Slice(0, p, 0, 3))
			right, wrong := mat.DenseCopyOf(&X), mat.DenseCopyOf(&X)
			for k := 0; k < 3; k++ {
				for i := 0; i < 5; i++ {
					// Column 2 flipped: the sign is free.
					s := 1.0
					if k == 1 {
						s = -1
					}
					right.Set(i, k, s*X.At(i, k)/math.Sqrt(vals[k]))
					wrong.Set(i, k, X.At(i, k)/math.Sqrt(float64(n)*vals[k]))
				}
			}
			return right, wrong, nil
		}},
		{"L1.5", "one component too few", "too small", func() (any, any, error) {
			vals, _, _, err := uspsEigen()
			if err != nil {
				return nil, nil, err
			}
			total := sum(vals)
			q := 0
			for sum(vals[q:]) >= 0.05*total {
				q++
			}
			return q, q - 1, nil
		}},
		{"L2.1", "the kernel matrix's eigenvalue μ₁ instead of μ₁/n", "too large", func() (any, any, error) {
			mu, _, err := oilKernelEigen()
			if err != nil {
				return nil, nil, err
			}
			return mu / 100, mu, nil
		}},
		{"L2.2", "the unnormalised eigenvector (the course notes' a)", "constant factor", func() (any, any, error) {
			mu, e, err := oilKernelEigen()
			if err != nil {
				return nil, nil, err
			}
			a := make([]float64, len(e))
			for i := range e {
				a[i] = -e[i] / math.Sqrt(mu) // the sign is free
			}
			return a, e, nil
		}},
		{"L2.3", "the n − 1 covariance", "n against n−1", func() (any, any, error) {
			Y, err := oil()
			if err != nil {
				return nil, nil, err
			}
			vals, _, _ := eigenDesc(Y)
			n, _ := Y.Dims()
			s2 := sum(vals[2:]) / 10
			return s2, s2 * float64(n) / float64(n-1), nil
		}},
		{"L2.4", "the course notes' constant r log 2π", "wrong sign", func() (any, any, error) {
			Y, err := oil()
			if err != nil {
				return nil, nil, err
			}
			vals, _, _ := eigenDesc(Y)
			n, p, q := 1000.0, 12.0, 2.0
			s2 := sum(vals[2:]) / (p - q)
			logdet := (p - q) * math.Log(s2)
			for _, l := range vals[:2] {
				logdet += math.Log(l)
			}
			core := -n / 2 * (logdet + p) // tr(C⁻¹S) = p at the maximum
			return core - n*p/2*math.Log(2*math.Pi), core - n*q/2*math.Log(2*math.Pi), nil
		}},
		{"L3.1", "the n − 1 variances of the toolbox", "n against n−1", func() (any, any, error) {
			ds, err := datasets.RotatedSixes()
			if err != nil {
				return nil, nil, err
			}
			Y := mat.DenseCopyOf(ds.Y)
			Y.Scale(1.0/255, Y)
			n, _ := Y.Dims()
			// From the n×n Gram matrix (p = 4096 > n).
			var Ycen mat.Dense
			Ycen.CloneFrom(Y)
			means := make([]float64, 4096)
			for j := range means {
				for i := 0; i < n; i++ {
					means[j] += Y.At(i, j) / float64(n)
				}
				for i := 0; i < n; i++ {
					Ycen.Set(i, j, Y.At(i, j)-means[j])
				}
			}
			K := mat.NewSymDense(n, nil)
			K.SymOuterK(1, &Ycen)
			var es mat.EigenSym
			es.Factorize(K, false)
			mu := es.Values(nil) // ascending
			tail := 0.0
			for k := 0; k < n-10; k++ {
				tail += math.Max(mu[k], 0) / float64(n)
			}
			E := 2 * float64(n*n) * tail
			return E, E * float64(n) / float64(n-1), nil
		}},
		{"L3.2", "B from the distances unsquared", "too small", func() (any, any, error) {
			vals, err := roadB()
			if err != nil {
				return nil, nil, err
			}
			d, _ := datasets.EuropeRoads(datasets.Cities48)
			m := d.D.SymmetricDim()
			H := mat.NewDense(m, m, nil)
			for i := 0; i < m; i++ {
				for j := 0; j < m; j++ {
					H.Set(i, j, -1/float64(m))
				}
				H.Set(i, i, 1-1/float64(m))
			}
			var B mat.Dense
			B.Product(H, d.D, H)
			B.Scale(-0.5, &B)
			var es mat.Eigen
			es.Factorize(&B, mat.EigenNone)
			big := 0.0
			for _, v := range es.Values(nil) {
				big = math.Max(big, real(v))
			}
			return vals[0], big, nil
		}},
		{"L3.3", "a threshold of −10⁻³λ₁ instead of −10⁻⁶λ₁", "too small", func() (any, any, error) {
			vals, err := roadB()
			if err != nil {
				return nil, nil, err
			}
			neg, coarse := 0, 0
			for _, v := range vals {
				if v < -1e-6*vals[0] {
					neg++
				}
				if v < -1e-3*vals[0] {
					coarse++
				}
			}
			return neg, coarse, nil
		}},
	}
}

// oilKernelEigen returns the leading eigenpair of the centred RBF (ℓ = 1)
// kernel matrix of the first 100 oil points, by gonum's dense solver.
func oilKernelEigen() (float64, []float64, error) {
	ds, err := datasets.Oil("train")
	if err != nil {
		return 0, nil, err
	}
	n := 100
	K := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			d := 0.0
			for k := 0; k < 12; k++ {
				x := ds.Y.At(i, k) - ds.Y.At(j, k)
				d += x * x
			}
			K.Set(i, j, math.Exp(-d/2))
		}
	}
	H := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			H.Set(i, j, -1/float64(n))
		}
		H.Set(i, i, 1-1/float64(n))
	}
	var Kc mat.Dense
	Kc.Product(H, K, H)
	S := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			S.SetSym(i, j, (Kc.At(i, j)+Kc.At(j, i))/2)
		}
	}
	var es mat.EigenSym
	es.Factorize(S, true)
	vals := es.Values(nil)
	var V mat.Dense
	es.VectorsTo(&V)
	return vals[n-1], mat.Col(nil, n-1, &V), nil
}
