package dimred

import (
	"errors"
	"math"
	"testing"
)

// A geometric ascent obj_t = 1 − 2^{−t}: the change 2^{−t} falls below
// Tol·|obj| after a predictable number of steps.
func TestIterationRun(t *testing.T) {
	for _, c := range []struct {
		name      string
		maxIter   int
		tol       float64
		stopAt    int // Monitor returns true at this iteration; −1 never
		wantIters int
		wantErr   error
	}{
		// change at step t is 2^{−t}; obj ≈ 1; 2^{−t} ≤ 1e-3 first at t = 10
		{"converges", 100, 1e-3, -1, 10, nil},
		{"limit", 5, 1e-3, -1, 5, ErrNotConverged},
		{"negative tol runs MaxIter", 7, -1, -1, 7, nil},
		{"monitor stops", 100, 1e-3, 3, 3, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			var seen []int
			it := newIteration("test", c.maxIter, c.tol, func(i int, obj float64) bool {
				seen = append(seen, i)
				return i == c.stopAt
			}, 1, 1)
			state := 0
			iters, obj, err := it.run(func() (float64, error) {
				return 1 - math.Pow(2, -float64(state)), nil
			}, func() error { state++; return nil })
			if iters != c.wantIters || state != c.wantIters {
				t.Errorf("iters = %d, steps = %d, want %d", iters, state, c.wantIters)
			}
			if want := 1 - math.Pow(2, -float64(c.wantIters)); obj != want {
				t.Errorf("obj = %v, want %v", obj, want)
			}
			if (err == nil) != (c.wantErr == nil) || c.wantErr != nil && !errors.Is(err, c.wantErr) {
				t.Errorf("err = %v, want %v", err, c.wantErr)
			}
			if len(seen) != c.wantIters+1 || seen[0] != 0 {
				t.Errorf("Monitor saw iterations %v, want 0…%d", seen, c.wantIters)
			}
		})
	}
}

func TestIterationRunErrors(t *testing.T) {
	it := newIteration("test", 10, 1e-6, nil, 1, 1)
	boom := errors.New("boom")
	if _, _, err := it.run(func() (float64, error) { return 0, boom }, func() error { return nil }); err != boom {
		t.Errorf("eval error: got %v", err)
	}
	if _, _, err := it.run(func() (float64, error) { return 1, nil }, func() error { return boom }); err != boom {
		t.Errorf("step error: got %v", err)
	}
	if _, _, err := it.run(func() (float64, error) { return math.Inf(1), nil }, func() error { return nil }); !errors.Is(err, ErrOverflow) {
		t.Errorf("Inf objective: got %v, want ErrOverflow", err)
	}
	mustPanic(t, "negative MaxIter", func() { newIteration("test", -1, 0, nil, 1, 1) })
	mustPanic(t, "NaN Tol", func() { newIteration("test", 0, math.NaN(), nil, 1, 1) })
	if d := newIteration("test", 0, 0, nil, 17, 1e-4); d.maxIter != 17 || d.tol != 1e-4 {
		t.Errorf("defaults not applied: %+v", d)
	}
}

// maximise finds the maximum of a concave quadratic with known optimum,
// f(x) = −½ Σ a_i (x_i − b_i)², from an arbitrary start.
func TestIterationMaximise(t *testing.T) {
	a := []float64{1, 10, 100}
	b := []float64{1, -2, 3}
	f := func(g, x []float64) float64 {
		v := 0.0
		for i := range x {
			d := x[i] - b[i]
			v -= 0.5 * a[i] * d * d
			if g != nil {
				g[i] = -a[i] * d
			}
		}
		return v
	}
	x := []float64{0, 0, 0}
	var objs []float64
	it := newIteration("quadratic", 200, 1e-14, func(_ int, obj float64) bool { objs = append(objs, obj); return false }, 1, 1)
	_, obj, err := it.maximise(x, 1e-10, f)
	if err != nil {
		t.Fatal(err)
	}
	for i := range x {
		if math.Abs(x[i]-b[i]) > 1e-8 {
			t.Errorf("x[%d] = %v, want %v", i, x[i], b[i])
		}
	}
	if math.Abs(obj) > 1e-12 {
		t.Errorf("max = %v, want 0", obj)
	}
	if len(objs) < 2 || objs[0] != f(nil, []float64{0, 0, 0}) {
		t.Errorf("Monitor saw %v; want the start's objective first", objs)
	}
	// The Monitor stops the fit: no error, fewer iterations.
	x = []float64{0, 0, 0}
	stop := newIteration("quadratic", 200, 1e-14, func(i int, _ float64) bool { return i == 1 }, 1, 1)
	if iters, _, err := stop.maximise(x, 1e-10, f); err != nil || iters > 2 {
		t.Errorf("Monitor stop: iters %d, err %v", iters, err)
	}
	// The iteration limit: ErrNotConverged, best point kept.
	x = []float64{0, 0, 0}
	lim := newIteration("quadratic", 2, 1e-14, nil, 1, 1)
	if _, obj, err := lim.maximise(x, 1e-10, f); !errors.Is(err, ErrNotConverged) || !(obj > f(nil, []float64{0, 0, 0})) || obj != f(nil, x) {
		t.Errorf("limit: obj %v, err %v", obj, err)
	}
}

// The rule per data point: an objective summed over n points converges when
// one step gains at most Tol·n, whatever its size or sign; here it tends to
// 0, where a test relative to |objective| can never be met.
func TestIterationPerPoint(t *testing.T) {
	const n = 100
	for _, c := range []struct {
		name      string
		it        iteration
		obj       func(step int) float64
		wantIters int
		wantErr   error
	}{
		// gain 0.5·2^{−t} at step t ≤ 1e-5·100 first at t = 9
		{"per point", newIteration("test", 100, 1e-5, nil, 1, 1).perPoint(n),
			func(s int) float64 { return -0.5 * math.Pow(2, -float64(s)) }, 9, nil},
		{"relative, objective → 0", newIteration("test", 30, 1e-5, nil, 1, 1),
			func(s int) float64 { return -0.5 * math.Pow(2, -float64(s)) }, 30, ErrNotConverged},
		// A falling objective: converged at once as an ascent (a fall is
		// round-off), tested on |change| = 2^{−t} with anyDirection: ≤ 1e-3 at t = 10.
		{"fall, ascent", newIteration("test", 100, 1e-3, nil, 1, 1).perPoint(1),
			func(s int) float64 { return math.Pow(2, -float64(s)) }, 1, nil},
		{"fall, any direction", newIteration("test", 100, 1e-3, nil, 1, 1).perPoint(1).anyDirection(),
			func(s int) float64 { return math.Pow(2, -float64(s)) }, 10, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			state := 0
			iters, _, err := c.it.run(func() (float64, error) { return c.obj(state), nil }, func() error { state++; return nil })
			if iters != c.wantIters {
				t.Errorf("iters = %d, want %d", iters, c.wantIters)
			}
			if (err == nil) != (c.wantErr == nil) || c.wantErr != nil && !errors.Is(err, c.wantErr) {
				t.Errorf("err = %v, want %v", err, c.wantErr)
			}
		})
	}
}
