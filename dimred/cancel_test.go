package dimred

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dimredbook/book/datasets"
	"github.com/dimredbook/book/dimred/internal/benchutil"
	"github.com/dimredbook/book/dimred/linalg"
	"github.com/dimredbook/book/dimred/progress"

	"gonum.org/v1/gonum/mat"
)

// The cancellation rule (package doc, "Cancellation and progress"): a
// FitContext whose context is cancelled returns within 100 ms an error
// wrapping context.Canceled, leaves the model unfitted and no goroutine
// running. Each long method is cancelled twice: 200 ms into the fit from
// another goroutine (the test), and — deterministically, whatever
// the machine's load — by its own progress Reporter at the start of a
// named phase, so that the phases that dominate each fit are each hit.

// cancelLimit is the largest latency allowed from cancel to return.
const cancelLimit = 100 * time.Millisecond

// cancelCase is one long fit.
type cancelCase struct {
	name  string
	model func() ContextFitter
	Y     mat.Matrix
	// phases are the progress phases to cancel in (at their first
	// report with done > 0, or at their start when it is the only one).
	phases []string
}

func cancelCases() []cancelCase {
	roll := datasets.SwissRoll(3000, rand.NewPCG(1, 2)).Y
	rollMVU := datasets.SwissRoll(250, rand.NewPCG(3, 4)).Y
	gtmY := planeData(1000, 10, 5)
	gpY := planeData(300, 8, 6)
	return []cancelCase{
		{"Isomap", func() ContextFitter { return &Isomap{Q: 2, K: 10} }, roll,
			[]string{"k-nearest neighbours", "geodesic distances", "eigensolver"}},
		{"MVU", func() ContextFitter { return &MVU{Q: 2, K: 6, MaxIter: 500} }, rollMVU,
			[]string{"k-nearest neighbours", "semidefinite programme"}},
		{"GTM", func() ContextFitter { return &GTM{Q: 2, Grid: 15, MaxIter: 100000, Tol: -1} }, gtmY,
			[]string{"GTM EM"}},
		{"GPLVM", func() ContextFitter { return &GPLVM{Q: 2, MaxIter: 100000, Tol: -1} }, gpY,
			[]string{"GPLVM"}},
	}
}

// fitAndCancel runs m.FitContext(ctx, Y) in a goroutine whose ctx is
// cancelled by trigger (called with the cancel function); it returns the
// time from cancel to the fit's return, whether a cancel happened, and the
// fit's error.
func fitAndCancel(t *testing.T, m ContextFitter, Y mat.Matrix, trigger func(cancel func()) progress.Reporter) (latency, bool, error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var mu sync.Mutex
	var at time.Time
	var cpuAt float64
	stamped := func() {
		mu.Lock()
		if at.IsZero() {
			at, cpuAt = time.Now(), benchutil.ProcessCPUSeconds()
		}
		mu.Unlock()
		cancel()
	}
	if r := trigger(stamped); r != nil {
		ctx = progress.With(ctx, r)
	}
	done := make(chan error, 1)
	go func() { done <- m.FitContext(ctx, Y) }()
	var err error
	select {
	case err = <-done:
	case <-time.After(5 * time.Minute):
		t.Fatal("fit did not return within 5 minutes")
	}
	end, cpuEnd := time.Now(), benchutil.ProcessCPUSeconds()
	mu.Lock()
	defer mu.Unlock()
	if at.IsZero() {
		return latency{}, false, err
	}
	return latency{end.Sub(at), time.Duration((cpuEnd - cpuAt) * 1e9)}, true, err
}

// latency is the time from cancel to return: wall clock, and the CPU time
// (user + system, all threads) the process spent meanwhile, which other
// jobs on a loaded machine do not inflate (the cancelled fit's workers may
// run on every core, so it can exceed the wall time).
type latency struct{ wall, cpu time.Duration }

// checkCancelled asserts the rule's outcome for one cancelled fit.
func checkCancelled(t *testing.T, m ContextFitter, err error, lat latency, ok bool, base int) {
	t.Helper()
	if !ok {
		t.Fatalf("the fit ended (err %v) before it was cancelled: make it longer", err)
	}
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v does not wrap context.Canceled", err)
	}
	t.Logf("cancel latency %v wall, %v CPU (%v); GOMAXPROCS %d", lat.wall.Round(time.Microsecond), lat.cpu.Round(time.Microsecond), err, runtime.GOMAXPROCS(0))
	// The CPU time is the work done after the cancel, whatever else the
	// machine runs: the rule holds on an idle machine when it is under the
	// limit. The wall time is asserted too unless the machine is
	// oversubscribed (load average above its cores), when it measures the
	// scheduler rather than the fit.
	if lat.cpu > cancelLimit {
		t.Errorf("%v of CPU time after cancel (%v wall), limit %v", lat.cpu, lat.wall, cancelLimit)
	}
	if load, busy := machineBusy(); lat.wall > cancelLimit {
		if busy {
			t.Logf("returned %v after cancel (%v CPU) on a machine with load average %.1f on %d cores: not asserted", lat.wall, lat.cpu, load, runtime.NumCPU())
		} else {
			t.Errorf("returned %v after cancel (%v CPU), limit %v", lat.wall, lat.cpu, cancelLimit)
		}
	}
	if msg := panicMessage(func() { var X mat.Dense; m.(Embedder).LatentTo(&X) }); msg == "" {
		t.Error("the cancelled model serves a fit")
	}
	// No goroutine left: the workers are joined before FitContext returns.
	deadline := time.Now().Add(time.Second)
	for runtime.NumGoroutine() > base && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if g := runtime.NumGoroutine(); g > base {
		t.Errorf("%d goroutines running after the fit, %d before", g, base)
	}
}

// planeData is n noisy points near a plane in p dimensions.
func planeData(n, p int, seed uint64) *mat.Dense {
	rnd := rand.New(rand.NewPCG(seed, uint64(p)))
	Y := mat.NewDense(n, p, nil)
	for i := 0; i < n; i++ {
		a, b := rnd.NormFloat64(), rnd.NormFloat64()
		for j := 0; j < p; j++ {
			Y.Set(i, j, float64(j+1)*a+float64(p-j)*0.5*b+0.1*rnd.NormFloat64())
		}
	}
	return Y
}

func TestCancelAfter200ms(t *testing.T) {
	if testing.Short() {
		t.Skip("long fits")
	}
	for _, c := range cancelCases() {
		t.Run(c.name, func(t *testing.T) {
			base := runtime.NumGoroutine()
			m := c.model()
			lat, ok, err := fitAndCancel(t, m, c.Y, func(cancel func()) progress.Reporter {
				time.AfterFunc(200*time.Millisecond, cancel)
				return nil
			})
			checkCancelled(t, m, err, lat, ok, base)
		})
	}
}

// TestCancelInPhase cancels each long fit from its own Reporter at the
// first report of each phase that does work (done > 0): deterministic,
// and each phase's check granularity is measured on its own.
func TestCancelInPhase(t *testing.T) {
	for _, c := range cancelCases() {
		for _, phase := range c.phases {
			t.Run(c.name+"/"+phase, func(t *testing.T) {
				if testing.Short() && c.name == "Isomap" && phase == "eigensolver" {
					t.Skip("after n = 3000 geodesics")
				}
				base := runtime.NumGoroutine()
				m := c.model()
				lat, ok, err := fitAndCancel(t, m, c.Y, func(cancel func()) progress.Reporter {
					return progress.ReporterFunc(func(p string, done, total int) {
						if p == phase && done > 0 {
							cancel()
						}
					})
				})
				checkCancelled(t, m, err, lat, ok, base)
			})
		}
	}
}

// machineBusy reports the one-minute load average and whether it exceeds
// the number of cores (false where /proc/loadavg is unavailable).
func machineBusy() (float64, bool) {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0, false
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return 0, false
	}
	load, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return 0, false
	}
	return load, load > float64(runtime.NumCPU())
}

// The other long entry points follow the same rule: FitMissing (PPCA,
// GPLVM), ClassicalMDS.FitDistances and GPLVMScore.Score have Context
// variants that return a context error at once on a cancelled context,
// leaving the model unfitted.
func TestCancelOtherEntryPoints(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	Y := planeData(40, 5, 3)
	Ymiss := mat.DenseCopyOf(Y)
	Ymiss.Set(3, 2, math.NaN())
	D := mat.NewSymDense(40, nil)
	linalg.PairwiseSquaredDistances(D, Y)
	pp := &PPCA{Q: 2, Method: PPCAEM}
	gp := &GPLVM{Q: 2, MaxIter: 20}
	md := &ClassicalMDS{Q: 2}
	for _, c := range []struct {
		name string
		run  func() error
		used func()
	}{
		{"PPCA.FitMissingContext", func() error { return pp.FitMissingContext(ctx, Ymiss) }, func() { pp.LatentTo(&mat.Dense{}) }},
		{"GPLVM.FitMissingContext", func() error { return gp.FitMissingContext(ctx, Ymiss) }, func() { gp.LatentTo(&mat.Dense{}) }},
		{"ClassicalMDS.FitDistancesContext", func() error { return md.FitDistancesContext(ctx, D) }, func() { md.LatentTo(&mat.Dense{}) }},
		{"GPLVMScore.ScoreContext", func() error {
			var X mat.Dense
			pca := &PCA{Q: 2}
			if err := pca.Fit(Y); err != nil {
				t.Fatal(err)
			}
			pca.LatentTo(&X)
			r, err := (&GPLVMScore{}).ScoreContext(ctx, &X, Y)
			if r != nil {
				t.Error("a cancelled score returned a result")
			}
			return err
		}, nil},
	} {
		if err := c.run(); !errors.Is(err, context.Canceled) {
			t.Errorf("%s: error %v, want context.Canceled", c.name, err)
		}
		if c.used != nil && panicMessage(c.used) == "" {
			t.Errorf("%s: the model is fitted", c.name)
		}
	}
}

// Every other method cancelled mid-fit, from its Reporter at the third
// report with done > 0 (so inside a phase, not at its start): the error
// wraps context.Canceled and none of the package's sentinels, and the
// model is unfitted. Not a latency test: the rule's outcome for each.
func TestCancelMidFitEveryMethod(t *testing.T) {
	Y := planeData(300, 6, 11)
	roll := datasets.SwissRoll(300, rand.NewPCG(5, 6)).Y
	for _, c := range []struct {
		name string
		m    ContextFitter
		Y    mat.Matrix
	}{
		{"PPCA EM", &PPCA{Q: 2, Method: PPCAEM, Tol: -1, MaxIter: 10000}, Y},
		{"FactorAnalysis", &FactorAnalysis{Q: 2, Tol: -1, MaxIter: 10000}, Y},
		{"MixturePPCA", &MixturePPCA{M: 2, Q: 2, Tol: -1, MaxIter: 10000}, Y},
		{"BayesianPCA", &BayesianPCA{Q: 4, Tol: -1, MaxIter: 10000}, Y},
		{"DensityNetwork", &DensityNetwork{Q: 2, Tol: -1, MaxIter: 10000}, Y},
		{"GTM", &GTM{Q: 2, Grid: 8, Tol: -1, MaxIter: 10000}, Y},
		{"MEU", &MEU{Q: 2, K: 6, Tol: -1, MaxIter: 10000}, roll},
		{"DRILL", &DRILL{Q: 2, K: 6, Rho: 0.01}, roll},
		{"LLE", &LLE{Q: 2, K: 10}, roll},
		{"LaplacianEigenmaps", &LaplacianEigenmaps{Q: 2, K: 10}, roll},
		{"Isomap", &Isomap{Q: 2, K: 10}, roll},
		{"TSNE", &TSNE{}, roll},
		{"UMAP", &UMAP{}, roll},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var mu sync.Mutex
			seen := 0
			ctx = progress.With(ctx, progress.ReporterFunc(func(_ string, done, _ int) {
				mu.Lock()
				defer mu.Unlock()
				if done > 0 {
					if seen++; seen == 3 {
						cancel()
					}
				}
			}))
			err := c.m.FitContext(ctx, c.Y)
			mu.Lock()
			n := seen
			mu.Unlock()
			if n < 3 {
				t.Fatalf("the fit ended after %d reports (err %v): nothing to cancel", n, err)
			}
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("error %v does not wrap context.Canceled", err)
			}
			for _, s := range []error{ErrNaN, ErrOverflow, ErrTooFewPoints, ErrNotConverged, ErrSingular, ErrDisconnected, ErrNotDistance, ErrNotEuclidean} {
				if errors.Is(err, s) {
					t.Errorf("error %v also wraps %v", err, s)
				}
			}
			if panicMessage(func() { c.m.(Embedder).LatentTo(&mat.Dense{}) }) == "" {
				t.Error("the cancelled model serves a fit")
			}
		})
	}
}
