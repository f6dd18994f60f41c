package dimred

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/dimredbook/book/dimred/progress"
	"gonum.org/v1/gonum/optimize"
)

// The one iteration driver of the package's iterative fits: EM (PPCA,
// PPCA with missing data, FactorAnalysis, MixturePPCA, BayesianPCA, GTM)
// and gradient-based fits (density networks, the GP-LVM and its score). Every such
// method has the same three settings, with the meaning below:
//
//	MaxIter  the largest number of iterations (EM steps, or major
//	         iterations of the optimiser); 0 means the method's default
//	Tol      convergence when one iteration changes the objective by at
//	         most Tol per data point (Tol·n for a log-likelihood summed
//	         over n points); 0 means the method's default; a negative Tol
//	         switches the test off, so the fit runs exactly MaxIter
//	         iterations (or until Monitor stops it) and reaching MaxIter
//	         is then not an error
//	Monitor  called with the iteration number (from 0) and the objective
//	         (a log-likelihood, its bound, or a log posterior) before every
//	         step and once at the end; returning true stops the fit, which
//	         then counts as converged
//
// A fit that reaches MaxIter with Tol ≥ 0 keeps its last (for EM, its
// best) result and returns an error wrapping ErrNotConverged; the model is
// fitted and usable.
//
// Why per data point: the change of a log-likelihood between two
// parameter values does not depend on the units of the data, but the
// log-likelihood itself does — rescaling Y by c adds −np·log c — so a test
// relative to |log p| stops at different points for the same fit in
// different units, and cannot be met at all where log p crosses zero.
// Dividing by n makes one Tol mean the same for 40 points and 40 000
// (scikit-learn's GaussianMixture uses the same per-sample gain). An
// objective that is not a sum over points (set no point count) is tested
// relative to |objective|.

// defaultEMTol is the default Tol of the EM fits: a gain of at most 1e-9
// nats per data point in one iteration. EM converges linearly, at a rate
// that approaches 1 as σ² falls against the kept eigenvalues (at σ² = 0
// every W spanning the principal subspace is a fixed point), so on clean
// data a tight test costs thousands of iterations: on a 40×5 data set whose
// noise variance is 0.2 % of the second eigenvalue, PPCA EM (q = 2)
// converges at a rate 1 − 8·10⁻⁴ per iteration and gains less than 1e-9
// nats per point per iteration only after 8 600 iterations (a test
// relative to |log p| at 1e-12 needs 15 000), while the principal subspace
// is exact to round-off after 10. On the oil data it stops after 47
// iterations with σ² and log p equal to the closed form in every reported
// digit.
const defaultEMTol = 1e-9

// iteration is the resolved control of one fit.
type iteration struct {
	name    string // the model and algorithm, for errors: "PPCA EM"
	maxIter int
	tol     float64
	monitor func(iter int, objective float64) bool
	// ascent marks an objective that every step should increase (an EM
	// log-likelihood or bound): the change tested is obj − prev, so a fall
	// (round-off at convergence) counts as converged. Otherwise |obj − prev|.
	ascent bool
	// points is the number of data points the objective sums over; the
	// test is change ≤ tol·points. Zero: change ≤ tol·|objective|.
	points int
	// params, when set, is a second test that must also hold: one on the
	// parameters (BayesianPCA's estimated distance to the fixed point).
	params func() bool
	// ctx is the fit's context (nil: never cancelled): checked before
	// every step (every evaluation of the optimiser), and told each
	// iteration as the progress phase named name, of maxIter.
	ctx context.Context
}

// under returns c run under ctx (see FitContext in the package doc).
func (c iteration) under(ctx context.Context) iteration { c.ctx = ctx; return c }

// phase starts the iteration's progress phase (nil without a context).
func (c iteration) phase() (*progress.Phase, error) {
	if c.ctx == nil {
		return nil, nil
	}
	return progress.Start(c.ctx, c.name, c.maxIter)
}

// alsoParams returns c requiring, besides the objective test, that done
// reports the parameters converged.
func (c iteration) alsoParams(done func() bool) iteration { c.params = done; return c }

// perPoint returns c with the convergence test on the change per data
// point, for an objective summed over n points.
func (c iteration) perPoint(n int) iteration { c.points = n; return c }

// anyDirection returns c testing |obj − prev|, for an objective that a
// step may decrease (BayesianPCA's, when a column is pruned).
func (c iteration) anyDirection() iteration { c.ascent = false; return c }

// newIteration resolves a method's MaxIter and Tol settings, a zero value
// replaced by the method's default. A negative MaxIter panics.
func newIteration(name string, maxIter int, tol float64, monitor func(int, float64) bool, defIter int, defTol float64) iteration {
	if maxIter < 0 {
		panic(fmt.Sprintf("dimred: %s MaxIter = %d < 0", name, maxIter))
	}
	if math.IsNaN(tol) {
		panic(fmt.Sprintf("dimred: %s Tol is NaN", name))
	}
	if maxIter == 0 {
		maxIter = defIter
	}
	if tol == 0 {
		tol = defTol
	}
	return iteration{name: name, maxIter: maxIter, tol: tol, monitor: monitor, ascent: true}
}

// run drives an alternating fit: eval computes the objective of the
// current state, step moves to the next state. It evaluates, asks the
// Monitor, tests convergence, and steps, at most maxIter times; on
// reaching the limit it evaluates the final state once more. The last call
// before run returns is always eval, so state that eval stores (an EM
// posterior) matches the final parameters. It returns the number of steps
// taken, the objective of the final state, and an error: eval's or step's,
// or one wrapping ErrNotConverged (not with a negative Tol).
func (c iteration) run(eval func() (float64, error), step func() error) (iters int, obj float64, err error) {
	ph, err := c.phase()
	if err != nil {
		return 0, math.NaN(), err
	}
	prev := math.Inf(-1)
	for it := 0; ; it++ {
		if err = ph.Set(it); err != nil {
			return it, obj, err
		}
		if obj, err = eval(); err != nil {
			return it, obj, err
		}
		if math.IsNaN(obj) || math.IsInf(obj, 0) {
			return it, obj, fmt.Errorf("%w: %s objective %v at iteration %d", ErrOverflow, c.name, obj, it)
		}
		if c.monitor != nil && c.monitor(it, obj) {
			return it, obj, nil
		}
		if it > 0 && c.converged(obj, prev) {
			return it, obj, nil
		}
		if it == c.maxIter {
			if c.tol < 0 {
				return it, obj, nil
			}
			return it, obj, c.notConverged(it, obj)
		}
		prev = obj
		if err = step(); err != nil {
			return it, obj, err
		}
	}
}

// converged applies the stopping rule to the objective obj after prev.
func (c iteration) converged(obj, prev float64) bool {
	if c.tol < 0 {
		return false
	}
	change := obj - prev
	if !c.ascent {
		change = math.Abs(change)
	}
	ok := change <= c.tol*math.Abs(obj)
	if c.points > 0 {
		ok = change <= c.tol*float64(c.points)
	}
	return ok && (c.params == nil || c.params())
}

func (c iteration) notConverged(it int, obj float64) error {
	return fmt.Errorf("%w: %s after %d iterations (objective %.10g)", ErrNotConverged, c.name, it, obj)
}

// errMonitorStop is how the Recorder of maximise stops the optimiser when
// the Monitor asks it to.
var errMonitorStop = errors.New("dimred: stopped by Monitor")

// maximise maximises f over x with gonum's L-BFGS, starting from x and
// leaving the best point found in x. f returns the objective at x and, when
// grad is non-nil, stores its gradient there. The Monitor sees the
// objective of every major iteration; convergence is the optimiser's
// gradient test (‖∇f‖∞ ≤ gradTol) or the driver's rule on the objective
// (change ≤ Tol·n, or Tol·|f| without a point count, over one major
// iteration). On reaching maxIter, x holds the best point with an error
// wrapping ErrNotConverged (none with a negative Tol).
func (c iteration) maximise(x []float64, gradTol float64, f func(grad, x []float64) float64) (iters int, obj float64, err error) {
	ph, err := c.phase()
	if err != nil {
		return 0, math.NaN(), err
	}
	cf := &cachedObjective{f: f, fx: math.NaN()}
	// Iteration 0 is the start: evaluate it here, show it to the Monitor,
	// and hand it to the optimiser so that it is not evaluated twice.
	cf.at(x)
	if math.IsNaN(cf.fx) || math.IsInf(cf.fx, 0) {
		return 0, cf.fx, fmt.Errorf("%w: %s objective %v at the start", ErrOverflow, c.name, cf.fx)
	}
	if c.monitor != nil && c.monitor(0, cf.fx) {
		return 0, cf.fx, nil
	}
	init := &optimize.Location{F: -cf.fx, Gradient: make([]float64, len(x))}
	for i, v := range cf.g {
		init.Gradient[i] = -v
	}
	s := &optimize.Settings{
		GradientThreshold: gradTol,
		Converger:         c.converger(),
		MajorIterations:   c.maxIter,
		Recorder:          &monitorRecorder{c: c, ph: ph},
		InitValues:        init,
	}
	res, err := optimize.Minimize(cf.problem(), x, s, &optimize.LBFGS{})
	if res != nil {
		copy(x, res.X)
		obj = -res.F
		iters = res.MajorIterations
	}
	if e := ph.Err(); e != nil {
		return iters, obj, e
	}
	switch {
	case errors.Is(err, errMonitorStop):
		return iters, obj, nil
	case err != nil:
		if res == nil || math.IsNaN(obj) || math.IsInf(obj, 0) {
			return iters, obj, fmt.Errorf("%w: %s: %v", ErrOverflow, c.name, err)
		}
		return iters, obj, fmt.Errorf("%w: %s: %v", ErrNotConverged, c.name, err)
	case res.Status == optimize.IterationLimit && c.tol >= 0:
		return iters, obj, c.notConverged(iters, obj)
	}
	return iters, obj, nil
}

// converger is the driver's rule on the objective as a gonum Converger.
func (c iteration) converger() optimize.Converger {
	switch {
	case c.tol < 0:
		return optimize.NeverTerminate{}
	case c.points > 0:
		return &optimize.FunctionConverge{Absolute: c.tol * float64(c.points), Iterations: 1}
	}
	return &optimize.FunctionConverge{Relative: c.tol, Iterations: 1}
}

// cachedObjective serves gonum's Problem, which evaluates Func and Grad
// separately at the same point, with one call of f per point; it negates
// f for the minimiser.
type cachedObjective struct {
	f    func(grad, x []float64) float64
	x, g []float64 // the last point and f's gradient there
	fx   float64   // f at x
}

func (cf *cachedObjective) at(x []float64) {
	if cf.x != nil && equalSlices(cf.x, x) {
		return
	}
	if cf.g == nil {
		cf.g = make([]float64, len(x))
	}
	cf.fx = cf.f(cf.g, x)
	cf.x = append(cf.x[:0], x...)
}

func (cf *cachedObjective) problem() optimize.Problem {
	return optimize.Problem{
		Func: func(x []float64) float64 { cf.at(x); return -cf.fx },
		Grad: func(g, x []float64) {
			cf.at(x)
			for i, v := range cf.g {
				g[i] = -v
			}
		},
	}
}

// monitorRecorder passes the objective of each major iteration to the
// Monitor and stops the optimiser when the Monitor returns true or the
// fit's context is done.
type monitorRecorder struct {
	c  iteration
	ph *progress.Phase
	it int
}

func (r *monitorRecorder) Init() error { r.it = 0; return nil }

func (r *monitorRecorder) Record(loc *optimize.Location, op optimize.Operation, _ *optimize.Stats) error {
	// Every operation (each evaluation of the line search, too) is a
	// point at which a cancelled fit stops.
	if err := r.ph.Err(); err != nil {
		return err
	}
	if op&optimize.MajorIteration == 0 {
		return nil
	}
	r.it++
	r.ph.Set(r.it)
	if r.c.monitor != nil && r.c.monitor(r.it, -loc.F) {
		return errMonitorStop
	}
	return nil
}

func equalSlices(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
