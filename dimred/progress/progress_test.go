package progress_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/dimredbook/book/dimred/progress"
)

// From without a Reporter gives one that discards, never nil; With(nil)
// removes an outer Reporter.
func TestFromWith(t *testing.T) {
	ctx := context.Background()
	progress.From(ctx).Report("x", 1, 2) // must not panic
	var got []int
	r := progress.ReporterFunc(func(_ string, done, _ int) { got = append(got, done) })
	ctx = progress.With(ctx, r)
	progress.From(ctx).Report("x", 3, 4)
	if len(got) != 1 || got[0] != 3 {
		t.Errorf("reports %v, want [3]", got)
	}
	progress.From(progress.With(ctx, nil)).Report("x", 5, 6)
	if len(got) != 1 {
		t.Errorf("With(ctx, nil) still reports: %v", got)
	}
}

// Workers adding concurrently: the Reporter sees done strictly
// increasing, capped at the total, ending at the total; Set never goes
// back; a nil Phase does nothing.
func TestPhaseMonotone(t *testing.T) {
	var mu sync.Mutex
	var seen []int
	r := progress.ReporterFunc(func(_ string, done, total int) {
		mu.Lock()
		seen = append(seen, done)
		mu.Unlock()
	})
	ph, err := progress.Start(progress.With(context.Background(), r), "work", 4000)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 500; i++ {
				if err := ph.Add(1); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	ph.Set(10) // below the count: not reported
	ph.Add(5)  // beyond the total: reported as the total
	if seen[0] != 0 {
		t.Errorf("first report %d, want 0 (Start)", seen[0])
	}
	for i := 1; i < len(seen); i++ {
		if seen[i] < seen[i-1] || seen[i] > 4000 {
			t.Fatalf("report %d: %d after %d (total 4000)", i, seen[i], seen[i-1])
		}
	}
	if last := seen[len(seen)-1]; last != 4000 {
		t.Errorf("last report %d, want 4000", last)
	}
	var nilPhase *progress.Phase
	if nilPhase.Add(1) != nil || nilPhase.Set(3) != nil || nilPhase.Err() != nil {
		t.Error("a nil Phase returned an error")
	}
}

// A done context: Start, Add, Set, Err and Check return an error wrapping
// ctx.Err() that names the phase.
func TestPhaseCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	ph, err := progress.Start(ctx, "geodesics", 10)
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	for _, err := range []error{ph.Add(1), ph.Set(2), ph.Err(), progress.Check(ctx, "geodesics")} {
		if !errors.Is(err, context.Canceled) || err.Error() != "dimred: geodesics: context canceled" {
			t.Errorf("error %v", err)
		}
	}
	if _, err := progress.Start(ctx, "next", 1); !errors.Is(err, context.Canceled) {
		t.Errorf("Start on a done context: %v", err)
	}
}
