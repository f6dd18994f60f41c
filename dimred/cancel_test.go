package dimred

import (
	"context"
	"errors"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/dimredbook/book/datasets"
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
	roll := datasets.SwissRoll(4000, rand.NewPCG(1, 2)).Y
	rollMVU := datasets.SwissRoll(250, rand.NewPCG(3, 4)).Y
	gtmY := planeData(2000, 10, 5)
	gpY := planeData(300, 8, 6)
	return []cancelCase{
		{"Isomap", func() ContextFitter { return &Isomap{Q: 2, K: 10} }, roll,
			[]string{"k-nearest neighbours", "geodesic distances", "eigensolver"}},
		{"MVU", func() ContextFitter { return &MVU{Q: 2, K: 6, MaxIter: 500} }, rollMVU,
			[]string{"k-nearest neighbours", "semidefinite programme"}},
		{"GTM", func() ContextFitter { return &GTM{Q: 2, Grid: 20, MaxIter: 100000, Tol: -1} }, gtmY,
			[]string{"GTM EM"}},
		{"GPLVM", func() ContextFitter { return &GPLVM{Q: 2, MaxIter: 100000, Tol: -1} }, gpY,
			[]string{"GPLVM"}},
	}
}

// fitAndCancel runs m.FitContext(ctx, Y) in a goroutine whose ctx is
// cancelled by trigger (called with the cancel function); it returns the
// fit's error and the time from cancel to the fit's return.
func fitAndCancel(t *testing.T, m ContextFitter, Y mat.Matrix, trigger func(cancel func()) progress.Reporter) (error, time.Duration, bool) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var mu sync.Mutex
	var at time.Time
	stamped := func() {
		mu.Lock()
		if at.IsZero() {
			at = time.Now()
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
	end := time.Now()
	mu.Lock()
	defer mu.Unlock()
	if at.IsZero() {
		return err, 0, false
	}
	return err, end.Sub(at), true
}

// checkCancelled asserts the rule's outcome for one cancelled fit.
func checkCancelled(t *testing.T, m ContextFitter, err error, lat time.Duration, ok bool, base int) {
	t.Helper()
	if !ok {
		t.Fatalf("the fit ended (err %v) before it was cancelled: make it longer", err)
	}
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v does not wrap context.Canceled", err)
	}
	t.Logf("cancel latency %v (%v); GOMAXPROCS %d", lat.Round(time.Microsecond), err, runtime.GOMAXPROCS(0))
	if lat > cancelLimit {
		t.Errorf("returned %v after cancel, limit %v", lat, cancelLimit)
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
			err, lat, ok := fitAndCancel(t, m, c.Y, func(cancel func()) progress.Reporter {
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
				if testing.Short() && c.name == "Isomap" && phase != "k-nearest neighbours" {
					t.Skip("n = 4000 geodesics")
				}
				base := runtime.NumGoroutine()
				m := c.model()
				err, lat, ok := fitAndCancel(t, m, c.Y, func(cancel func()) progress.Reporter {
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
