package figures

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dimredbook/book/datasets"
	"github.com/dimredbook/book/dimred"
	"github.com/dimredbook/book/dimred/progress"
)

// A nil *Progress is the silent one long figure functions get from tests
// and callers that want no output: every method must be a no-op.
func TestProgressNil(t *testing.T) {
	var p *Progress
	p.Step("x", 0, 3)
	if p.Monitor(1, 2) {
		t.Error("nil Progress's Monitor stopped the fit")
	}
	p.SetMaxIter(10).Done("extra")
	p.Clear()
}

// The line names the step, its count and the elapsed time, and estimates
// the time left as the mean step so far times the steps to go (an upper
// bound for a fit with an iteration limit).
func TestProgressState(t *testing.T) {
	now := time.Now()
	p := &Progress{Name: "Fig P7", start: now.Add(-30 * time.Second), stepStart: now}
	p.what, p.done, p.total = "LLE on robot", 3, 9
	s := p.state()
	for _, want := range []string{"step 4 of 9 (LLE on robot)", "30 s", "about 60 s left"} {
		if !strings.Contains(s, want) {
			t.Errorf("state %q lacks %q", s, want)
		}
	}
	// 4 s into the current step: 10 s per step, 5 to come after it.
	p.stepStart = now.Add(-4 * time.Second)
	p.start = p.stepStart.Add(-30 * time.Second)
	if s := p.state(); !strings.Contains(s, "about 56 s left") {
		t.Errorf("state %q: want about 56 s left", s)
	}
	// A step that overruns the mean: only the steps after it are left.
	p.stepStart = now.Add(-25 * time.Second)
	p.start = p.stepStart.Add(-30 * time.Second)
	if s := p.state(); !strings.Contains(s, "about 50 s left") {
		t.Errorf("state %q: want about 50 s left", s)
	}
	q := &Progress{Name: "MVU", start: time.Now().Add(-10 * time.Second), maxIter: 50}
	q.iter, q.obj, q.iters = 10, 1e-3, true
	s = q.state()
	for _, want := range []string{"iteration 10 of at most 50", "objective 0.001", "at most 40 s left"} {
		if !strings.Contains(s, want) {
			t.Errorf("state %q lacks %q", s, want)
		}
	}
	if _, _, ok := (&Progress{start: time.Now()}).timeLeft(time.Second); ok {
		t.Error("a time left estimated before any step finished")
	}
}

// On a terminal the line is written every period while a step runs, and
// Done ends it with the total time; the persistent notebook summary has no
// time in it (executed notebooks must be identical run to run) and is what
// scripts/nbcheck recognises as a progress display.
func TestProgressTerminal(t *testing.T) {
	var b safeBuffer
	p := &Progress{Name: "Fig P8", w: &b, start: time.Now()}
	p.tick(20 * time.Millisecond)
	p.Step("fits", 0, 2)
	time.Sleep(120 * time.Millisecond)
	p.Done("")
	out := b.String()
	if !strings.Contains(out, "  Fig P8: step 1 of 2 (fits)") || !strings.Contains(out, "Fig P8: done in") {
		t.Errorf("terminal output %q", out)
	}
	n := strings.Count(out, "\n")
	time.Sleep(60 * time.Millisecond)
	if strings.Count(b.String(), "\n") != n {
		t.Error("the ticker wrote after Done")
	}
	p.total, p.iters, p.iter, p.obj = 2, true, 7, 1.5
	s := p.summary()
	if !IsProgressHTML(s) || regexp.MustCompile(`\d s\b`).MatchString(s) {
		t.Errorf("summary %q: not recognised as progress, or has a time", s)
	}
	if IsProgressHTML("<p><b>Figure 5.1.</b> caption</p>") {
		t.Error("a caption taken for a progress line")
	}
}

type safeBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *safeBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *safeBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Long figures report steps through MakeProgress; the others ignore the
// Progress and draw as Make does.
func TestRegisterLong(t *testing.T) {
	for _, id := range []string{"6.10", "P3", "P4", "P5", "P6", "P7", "P8", "P9", "X5.1", "X5.2", "X5.3", "X5.4", "X5.5", "X5.6", "X5.7"} {
		e, ok := Lookup(id)
		if !ok || !e.Long() {
			t.Errorf("figure %s not registered as long", id)
		}
	}
	e, _ := Lookup("1.1")
	if e.Long() {
		t.Fatal("figure 1.1 registered as long")
	}
	var b safeBuffer
	p := NewProgressTo(&b, "figure 1.1")
	f, err := e.MakeProgress(p)
	p.Done("")
	if err != nil || f.ID != "1.1" {
		t.Errorf("MakeProgress of 1.1: %v, %v", f, err)
	}
}

// Progress is a progress.Reporter: a fit run under p.Context(ctx) shows
// its phase on the line; the persistent summary leaves it out. A nil
// Progress's Context is ctx itself.
func TestProgressReporter(t *testing.T) {
	var _ progress.Reporter = (*Progress)(nil)
	var nilp *Progress
	nilp.Report("x", 1, 2)
	if ctx := context.Background(); nilp.Context(ctx) != ctx {
		t.Error("nil Progress's Context is not ctx")
	}
	p := &Progress{Name: "Fig 5.9", start: time.Now()}
	p.what, p.done, p.total = "Isomap", 0, 3
	m := &dimred.Isomap{Q: 2, K: 8}
	if err := m.FitContext(p.Context(context.Background()), datasets.SwissRoll(300, nil).Y); err != nil {
		t.Fatal(err)
	}
	if p.phase == "" {
		t.Fatal("the fit reported no phase")
	}
	p.Report("geodesic distances", 120, 300)
	if s := p.state(); !strings.Contains(s, "step 1 of 3 (Isomap), geodesic distances 120 of 300") {
		t.Errorf("state %q lacks the phase", s)
	}
	if s := p.summary(); strings.Contains(s, "geodesic") {
		t.Errorf("summary %q shows the phase", s)
	}
}
