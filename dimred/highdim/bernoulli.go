package highdim

import (
	"errors"
	"fmt"
	"math"

	"github.com/dimredbook/book/dimred/internal/errs"

	"gonum.org/v1/gonum/mat"
)

// ErrNotBinary reports data that should hold only 0s and 1s.
var ErrNotBinary = errors.New("dimred: entries must be 0 or 1")

// Bernoulli is the book's independent-pixel model of a binary image (Box
// 3.1): each of the p pixels is on (1) with probability π, independently,
//
//	p(y | π) = π^{p₁} (1 − π)^{p − p₁},
//
// with p₁ the number of pixels that are on. The negative log-likelihood
//
//	E(π) = −p₁ log π − (p − p₁) log(1 − π)
//
// has dE/dπ = −p₁/π + (p − p₁)/(1 − π) and d²E/dπ² = p₁/π² + (p − p₁)/(1 − π)²
// > 0, so it is convex and its unique minimum is the maximum-likelihood
// estimate π = p₁/p. (The draft's Box 3.1 has the first derivative's sign
// flipped and the second derivative negative; see the Chapter 3 notebook.)
type Bernoulli struct {
	Pi float64 // π, probability that a pixel is on

	p1, p int
}

// Fit sets π = p₁/p, the maximum-likelihood estimate, from Y, whose
// entries (any shape; all of them are pixels) must be 0 or 1. It returns
// an error wrapping ErrNaN (dimred.ErrNaN) or ErrNotBinary naming the first
// bad entry, and ErrTooFewPoints (dimred.ErrTooFewPoints) when Y has no
// entries (π would be 0/0). A failed Fit discards the previous estimate:
// π and both counts are left 0.
func (b *Bernoulli) Fit(Y mat.Matrix) error {
	p1, p, err := countOnes(Y)
	if err == nil && p == 0 {
		err = fmt.Errorf("%w: Bernoulli needs at least one pixel, have 0", errs.ErrTooFewPoints)
	}
	if err != nil {
		b.Pi, b.p1, b.p = 0, 0, 0
		return err
	}
	b.Pi, b.p1, b.p = float64(p1)/float64(p), p1, p
	return nil
}

// Counts returns p₁ (pixels on) and p (all pixels) of the data last
// fitted.
func (b *Bernoulli) Counts() (p1, p int) { return b.p1, b.p }

// LogProb returns log p(Y | π) (natural logarithm) of the binary matrix Y.
// The probability itself underflows float64 for images of a few thousand
// pixels, so stay in log space.
func (b *Bernoulli) LogProb(Y mat.Matrix) (float64, error) {
	p1, p, err := countOnes(Y)
	if err != nil {
		return 0, err
	}
	return BernoulliLogProb(p1, p, b.Pi), nil
}

// BernoulliLogProb returns p₁ log π + (p − p₁) log(1 − π), the natural log
// of the probability of one particular binary image with p₁ of p pixels
// on (terms with a zero count contribute 0).
func BernoulliLogProb(p1, p int, pi float64) float64 {
	l := 0.0
	if p1 > 0 {
		l += float64(p1) * math.Log(pi)
	}
	if p-p1 > 0 {
		l += float64(p-p1) * math.Log1p(-pi)
	}
	return l
}

// GeometricWaitLog10 returns log₁₀ of the expected number of independent
// trials until an event of probability 10^log10p first happens, 1/p for
// the geometric distribution: −log10p.
func GeometricWaitLog10(log10p float64) float64 { return -log10p }

// Log10ProbWithin returns log₁₀ of the probability that an event of
// probability 10^log10p happens at least once in N independent trials,
// 1 − (1 − p)^N, computed in log space (≈ log₁₀(Np) when Np ≪ 1, where
// p itself may underflow).
func Log10ProbWithin(log10p, N float64) float64 {
	lnp := log10p * math.Ln10
	if lnp < -700 { // p underflows; log1p(−p) = −p to all digits
		lnNp := lnp + math.Log(N)
		if lnNp < -30 {
			return lnNp / math.Ln10
		}
		return math.Log10(-math.Expm1(-math.Exp(lnNp)))
	}
	return math.Log10(-math.Expm1(N * math.Log1p(-math.Exp(lnp))))
}

func countOnes(Y mat.Matrix) (p1, p int, err error) {
	r, c := Y.Dims()
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			switch v := Y.At(i, j); {
			case math.IsNaN(v) || math.IsInf(v, 0):
				return 0, 0, fmt.Errorf("%w: Y[%d,%d] = %v", errs.ErrNaN, i, j, v)
			case v == 1:
				p1++
			case v != 0:
				return 0, 0, fmt.Errorf("%w: Y[%d,%d] = %v", ErrNotBinary, i, j, v)
			}
		}
	}
	return p1, r * c, nil
}
