// Package progress is how a dimred fit reports how far it has got, and the
// one place the package's cancellation rule is implemented.
//
// A long fit runs in phases — the k-nearest-neighbour search, the geodesic
// distances, the eigensolver, the iterations of an SDP, EM or L-BFGS — and
// each phase counts its work: rows searched, sources solved, Lanczos
// restarts, iterations. A caller that wants to see them attaches one
// Reporter to the context it passes to FitContext:
//
//	ctx := progress.With(ctx, progress.ReporterFunc(func(phase string, done, total int) {
//		log.Printf("%s: %d of %d", phase, done, total)
//	}))
//	err := m.FitContext(ctx, Y)
//
// No model has a field for it: the inner layers (dimred/neighbours,
// dimred/linalg, the SDP and the iteration loop of dimred) read the
// Reporter from the context they are given, so that every layer reports
// through the same interface without knowing who listens.
//
// Within one phase, done never decreases and never exceeds total. A total
// of 0 means the phase's length is not known in advance (an iteration
// that stops on a convergence test reports its limit MaxIter as total
// instead). A phase may repeat (a fit of several eigenproblems, a refit of
// a component); done then starts again from 0.
//
// Reports are made at the granularity at which the layers check the
// context for cancellation (Check), which is fine enough that a cancelled
// fit returns within well under 100 ms: per row block, per source, per
// iteration. A Reporter is called from the goroutine running the fit or
// from its worker goroutines, possibly concurrently: it must be safe for
// concurrent use and cheap (it is called up to a few thousand times per
// phase); it must not call back into the fit.
package progress

import (
	"context"
	"fmt"
	"sync"
)

// Reporter receives a fit's progress: the phase under way, the units of
// work done in it and their total (0 if unknown).
type Reporter interface {
	Report(phase string, done, total int)
}

// ReporterFunc adapts a function to a Reporter.
type ReporterFunc func(phase string, done, total int)

// Report calls f(phase, done, total).
func (f ReporterFunc) Report(phase string, done, total int) { f(phase, done, total) }

type key struct{}

// With returns a copy of ctx carrying r, which From returns. A nil r
// removes any Reporter ctx carries.
func With(ctx context.Context, r Reporter) context.Context {
	return context.WithValue(ctx, key{}, r)
}

// From returns the Reporter ctx carries, or a Reporter that discards every
// report: the result is never nil.
func From(ctx context.Context) Reporter {
	if r, ok := ctx.Value(key{}).(Reporter); ok && r != nil {
		return r
	}
	return discard{}
}

type discard struct{}

func (discard) Report(string, int, int) {}

// Check returns nil while ctx is live, and once it is cancelled or past its
// deadline an error wrapping ctx.Err() (context.Canceled or
// context.DeadlineExceeded) that names where the work stopped. Every layer
// of dimred calls it between units of work; its cost is that of ctx.Err().
func Check(ctx context.Context, where string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("dimred: %s: %w", where, err)
	}
	return nil
}

// Phase counts the work of one phase, done by one goroutine or several,
// and reports it: Start reports (name, 0, total), each Add the new count,
// under a lock so that the Reporter sees done increase even when workers
// add concurrently. A nil *Phase is a phase nobody watches: its methods
// do nothing and return nil.
type Phase struct {
	ctx   context.Context
	r     Reporter
	name  string
	total int
	mu    sync.Mutex
	done  int
}

// Start begins the phase name of total units (0 if unknown) under ctx,
// reports it to ctx's Reporter and returns it. It returns Check's error
// if ctx is already done.
func Start(ctx context.Context, name string, total int) (*Phase, error) {
	p := &Phase{ctx: ctx, r: From(ctx), name: name, total: total}
	if err := Check(ctx, name); err != nil {
		return p, err
	}
	p.r.Report(name, 0, total)
	return p, nil
}

// Add records n more units done, reports the count (capped at the total
// when there is one) and returns Check's error once ctx is done, so that a
// worker stops at its next unit:
//
//	for each unit {
//		if ph.Add(1) != nil { return }
//		...
//	}
func (p *Phase) Add(n int) error {
	if p == nil {
		return nil
	}
	if err := p.ctx.Err(); err != nil {
		return fmt.Errorf("dimred: %s: %w", p.name, err)
	}
	p.mu.Lock()
	p.done += n
	d := p.done
	if p.total > 0 && d > p.total {
		d = p.total
	}
	p.r.Report(p.name, d, p.total)
	p.mu.Unlock()
	return nil
}

// Set records that done units are finished (for a count that the caller
// keeps, such as an iteration number) and reports it like Add; a done
// below the last one reported is not reported, so the reports stay
// monotone.
func (p *Phase) Set(done int) error {
	if p == nil {
		return nil
	}
	if err := p.ctx.Err(); err != nil {
		return fmt.Errorf("dimred: %s: %w", p.name, err)
	}
	p.mu.Lock()
	if done > p.done {
		p.done = done
		if p.total > 0 && done > p.total {
			done = p.total
		}
		p.r.Report(p.name, done, p.total)
	}
	p.mu.Unlock()
	return nil
}

// Err is Check(ctx, name) for the phase's context: nil while it is live.
func (p *Phase) Err() error {
	if p == nil {
		return nil
	}
	return Check(p.ctx, p.name)
}
