package figures

import (
	"context"
	"fmt"
	"html"
	"io"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/dimredbook/book/dimred/progress"
	"github.com/janpfeifer/gonb/gonbui"
)

// Progress shows a long computation's progress while it runs: one line,
// updated in place in a notebook (gonbui.UpdateHTML, at most every 200 ms
// and at least every second) or written every 5 s to a terminal or log,
// with what is being done, how far it is
// (step i of n, or the iteration of an iterative fit and its objective),
// the time so far and an estimate of the time left. Done turns the line
// into a persistent summary without times, so an executed notebook is the
// same file run after run.
//
// A long computation reports through one of two calls:
//
//   - Step(what, done, total) before each of a known number of steps (the
//     14 fits of a figure, the λ values of a sweep): the time left is
//     estimated from the mean finished step: that mean for each step still
//     to come, less the time the current step has already run;
//   - Monitor(iter, objective), the Monitor of an iterative fit: with
//     SetMaxIter(m) the time left is bounded by the mean iteration so far
//     times the iterations to the limit ("at most").
//
// A cell should print nothing while its Progress is live (collect the
// lines and print them after Done): GoNB forwards printed text and display
// data separately, so text printed during a fit could land before or after
// the line depending on the machine's speed.
//
// The zero of a long figure function's progress is nil: every method of a
// nil *Progress does nothing, so figure code calls them unconditionally.
// There is no package state: each Progress belongs to one computation, and
// where it writes is chosen when it is made (NewProgress in a notebook,
// NewProgressTo for a command's terminal or log).
type Progress struct {
	Name string

	mu        sync.Mutex    // the ticker goroutine redraws the line too
	stop      chan struct{} // closed by Done: stops the ticker
	w         io.Writer     // NewProgressTo's output; nil for a notebook line
	id        string        // notebook display id; "" when not showing in a notebook
	start     time.Time
	last      time.Time
	shown     bool // a terminal line was written
	finished  bool // Done (or Clear) was called
	iter      int
	obj       float64
	iters     bool // Monitor has been called
	maxIter   int
	objName   string // what Monitor's value is; "" means "objective"
	what      string
	done      int
	total     int
	stepStart time.Time // when the current step started
	// The phase of the fit under way, as its progress.Reporter (Report).
	phase                 string
	phaseDone, phaseTotal int
}

// NewProgress starts the progress line of the computation called name in
// the notebook cell running it. Outside a notebook it shows nothing.
func NewProgress(name string) *Progress {
	p := &Progress{Name: name, start: time.Now()}
	if gonbui.IsNotebook {
		// The line appears after a second (or at Done): not at once,
		// so that it never races the cell's printed text before it —
		// GoNB forwards standard output and display data separately —
		// and the executed notebook holds one output per Progress
		// however long the computation took.
		p.id = "progress-" + gonbui.UniqueId()
		p.tick(time.Second)
	}
	return p
}

// tick redraws the line every period until Done, so that the elapsed time
// and the estimate move during a long step too.
func (p *Progress) tick(period time.Duration) {
	p.stop = make(chan struct{})
	go func() {
		t := time.NewTicker(period)
		defer t.Stop()
		for {
			select {
			case <-p.stop:
				return
			case <-t.C:
				p.mu.Lock()
				p.redraw(time.Now())
				p.mu.Unlock()
			}
		}
	}()
}

// NewProgressTo starts a progress report of the computation called name
// written to w as plain lines, one every 5 s from 5 s on, for commands
// such as scripts/render; call Done when it ends. A nil w gives a Progress
// that shows nothing.
func NewProgressTo(w io.Writer, name string) *Progress {
	p := &Progress{Name: name, w: w, start: time.Now()}
	if w != nil {
		p.tick(5 * time.Second)
	}
	return p
}

// SetMaxIter tells the progress line the iteration limit of the fit whose
// Monitor it is, so that it can bound the time left. It returns p.
func (p *Progress) SetMaxIter(maxIter int) *Progress {
	if p != nil {
		p.mu.Lock()
		p.maxIter = maxIter
		p.mu.Unlock()
	}
	return p
}

// SetObjective names the value the fit passes to Monitor (e.g. "duality
// gap"; the default is "objective"). It returns p.
func (p *Progress) SetObjective(name string) *Progress {
	if p != nil {
		p.mu.Lock()
		p.objName = name
		p.mu.Unlock()
	}
	return p
}

// Step reports that the step described by what starts, after done of total
// steps have finished (0 ≤ done < total).
func (p *Progress) Step(what string, done, total int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.what, p.done, p.total, p.stepStart = what, done, total, time.Now()
	if p.id != "" && p.shown {
		p.redraw(time.Now()) // a new step's name is worth showing at once
	}
}

// Monitor records the iteration and objective and refreshes the line; it
// never stops the fit. Its signature is that of the dimred Monitor fields.
func (p *Progress) Monitor(iter int, objective float64) bool {
	if p == nil {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.iter, p.obj, p.iters = iter, objective, true
	if now := time.Now(); p.id != "" && p.shown && now.Sub(p.last) > 200*time.Millisecond {
		p.redraw(now)
	}
	return false
}

// Report records the phase of the fit under way and how far it has got:
// p is a progress.Reporter, so a fit run as m.FitContext(p.Context(ctx), Y)
// shows its k-nearest-neighbour search, geodesics, eigensolver or SDP on
// the line (after the step and the iteration; the persistent summary of
// Done leaves it out). Safe for concurrent use, as the Reporter
// interface requires.
func (p *Progress) Report(phase string, done, total int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.phase, p.phaseDone, p.phaseTotal = phase, done, total
	if now := time.Now(); p.id != "" && p.shown && now.Sub(p.last) > 200*time.Millisecond {
		p.redraw(now)
	}
}

// Context returns ctx carrying p as its progress.Reporter, for FitContext.
func (p *Progress) Context(ctx context.Context) context.Context {
	if p == nil {
		return ctx
	}
	return progress.With(ctx, p)
}

// redraw shows the line now (p.mu held): in the notebook, or as a line of
// the terminal output (the ticker's period spaces those).
func (p *Progress) redraw(now time.Time) {
	if p.finished {
		return // a tick that waited for Done
	}
	p.last = now
	switch {
	case p.id != "":
		p.shown = true
		gonbui.UpdateHTML(p.id, p.html("running"))
	case p.w != nil:
		p.shown = true
		fmt.Fprintf(p.w, "  %s: %s\n", p.Name, p.state())
	}
}

// state is the line's text after the name: the step or the iteration, the
// elapsed time and the estimate of the time left.
func (p *Progress) state() string {
	elapsed := time.Since(p.start)
	var b strings.Builder
	if p.total > 0 {
		fmt.Fprintf(&b, "step %d of %d", p.done+1, p.total)
		if p.what != "" {
			fmt.Fprintf(&b, " (%s)", p.what)
		}
	}
	if p.iters {
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "iteration %d", p.iter)
		if p.maxIter > 0 {
			fmt.Fprintf(&b, " of at most %d", p.maxIter)
		}
		fmt.Fprintf(&b, ", %s %.6g", p.objective(), p.obj)
	}
	if p.phase != "" {
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		if p.phaseTotal > 0 {
			fmt.Fprintf(&b, "%s %d of %d", p.phase, p.phaseDone, p.phaseTotal)
		} else {
			fmt.Fprintf(&b, "%s %d", p.phase, p.phaseDone)
		}
	}
	if b.Len() == 0 {
		b.WriteString("running")
	}
	fmt.Fprintf(&b, ", %s", roundDuration(elapsed))
	if left, bound, ok := p.timeLeft(elapsed); ok {
		if bound {
			fmt.Fprintf(&b, ", at most %s left", roundDuration(left))
		} else {
			fmt.Fprintf(&b, ", about %s left", roundDuration(left))
		}
	}
	return b.String()
}

func (p *Progress) objective() string {
	if p.objName == "" {
		return "objective"
	}
	return p.objName
}

// timeLeft estimates the time left from the steps or iterations done so
// far; bound says it is an upper bound (iterations to the limit).
func (p *Progress) timeLeft(elapsed time.Duration) (left time.Duration, bound, ok bool) {
	switch {
	case p.total > 0 && p.done > 0:
		// the mean finished step for each step to come, less the time
		// the current one has run
		mean := float64(p.stepStart.Sub(p.start)) / float64(p.done)
		cur := max(0, mean-float64(elapsed-p.stepStart.Sub(p.start)))
		return time.Duration(mean*float64(p.total-p.done-1) + cur), false, true
	case p.total <= 0 && p.iters && p.maxIter > 0 && p.iter > 0:
		return time.Duration(float64(elapsed) * float64(p.maxIter-p.iter) / float64(p.iter)), true, true
	}
	return 0, false, false
}

// roundDuration prints d to a whole second (a tenth below 10 s).
func roundDuration(d time.Duration) string {
	if d < 10*time.Second {
		return fmt.Sprintf("%.1f s", d.Seconds())
	}
	return fmt.Sprintf("%.0f s", d.Seconds())
}

func (p *Progress) html(state string) string {
	if state == "running" {
		state = p.state()
	}
	return fmt.Sprintf("<p><b>%s</b> %s</p>", html.EscapeString(p.Name), html.EscapeString(state))
}

// summary is the persistent line: no wall-clock time, so that an executed
// notebook is the same file run after run.
func (p *Progress) summary() string {
	var parts []string
	if p.total > 0 {
		parts = append(parts, fmt.Sprintf("%d steps", p.total))
	}
	if p.iters && p.total == 0 {
		parts = append(parts, fmt.Sprintf("iteration %d, %s %.6g", p.iter, p.objective(), p.obj))
	}
	return fmt.Sprintf("<p><b>%s</b> done: %s</p>", html.EscapeString(p.Name), strings.Join(parts, ", "))
}

// Done replaces the transient line by a persistent summary (with extra
// appended), so the executed notebook keeps it; on a terminal it
// writes a last line with the total time if it wrote any before.
func (p *Progress) Done(extra string) {
	if p == nil {
		return
	}
	if !p.finish() {
		return
	}
	if p.w != nil {
		if p.shown {
			fmt.Fprintf(p.w, "  %s: done in %s\n", p.Name, roundDuration(time.Since(p.start)))
		}
		return
	}
	if p.id == "" {
		return
	}
	s := p.summary()
	if extra != "" {
		s = s[:len(s)-4] + " — " + html.EscapeString(extra) + "</p>"
	}
	gonbui.UpdateHTML(p.id, s) // the line becomes the summary
	gonbui.Sync()
}

// progressDoneRe matches the persistent line of Done.
var progressDoneRe = regexp.MustCompile(`^<p><b>[^<]*</b> done:`)

// IsProgressHTML reports whether s, the HTML of a notebook output, is the
// persistent line a Progress leaves (what scripts/nbcheck looks for in a
// long cell).
func IsProgressHTML(s string) bool {
	return progressDoneRe.MatchString(strings.TrimSpace(s))
}

// inNotebook runs a long figure computation with a Progress line called
// name shown in the notebook cell that calls it (nothing outside a
// notebook), and closes the line when it ends: what the exported function
// of a figure registered with RegisterLong does.
func inNotebook(name string, long func(*Progress) (*Figure, error)) (*Figure, error) {
	p := NewProgress(name)
	f, err := long(p)
	if err != nil {
		p.Clear()
		return nil, err
	}
	p.Done("")
	return f, err
}

// finish stops the ticker and marks p finished; it reports false if p was
// finished already.
func (p *Progress) finish() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.finished {
		return false
	}
	p.finished = true
	if p.stop != nil {
		close(p.stop)
	}
	return true
}

// Clear removes the transient line without a summary (a computation that
// failed: its error says what happened).
func (p *Progress) Clear() {
	if p == nil || !p.finish() {
		return
	}
	if p.id != "" && p.shown {
		gonbui.UpdateHTML(p.id, "")
		gonbui.Sync()
	}
}
