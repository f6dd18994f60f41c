package figures

import (
	"fmt"
	"html"
	"time"

	"github.com/janpfeifer/gonb/gonbui"
)

// Progress shows a long fit's progress in a notebook cell: a line updated
// in place (gonbui.UpdateHTML) with the iteration and the objective, at
// most every 200 ms. Use its Monitor as the fit's Monitor, then call Done,
// which replaces the transient line with a persistent one. Outside a
// notebook it does nothing.
type Progress struct {
	Name  string
	id    string
	start time.Time
	last  time.Time
	iter  int
	obj   float64
}

// NewProgress starts the progress line of the fit called name.
func NewProgress(name string) *Progress {
	p := &Progress{Name: name, start: time.Now()}
	if gonbui.IsNotebook {
		p.id = "progress-" + gonbui.UniqueId()
		gonbui.UpdateHTML(p.id, p.line("starting"))
	}
	return p
}

func (p *Progress) line(state string) string {
	return fmt.Sprintf("<p><b>%s</b> %s: iteration %d, objective %.6g, %.1f s</p>",
		html.EscapeString(p.Name), state, p.iter, p.obj, time.Since(p.start).Seconds())
}

// summary is the persistent line: no wall-clock time, so that an executed
// notebook is the same file run after run.
func (p *Progress) summary() string {
	return fmt.Sprintf("<p><b>%s</b> done: iteration %d, objective %.6g</p>", html.EscapeString(p.Name), p.iter, p.obj)
}

// Monitor records the iteration and objective and refreshes the line; it
// never stops the fit.
func (p *Progress) Monitor(iter int, objective float64) bool {
	p.iter, p.obj = iter, objective
	if gonbui.IsNotebook && time.Since(p.last) > 200*time.Millisecond {
		p.last = time.Now()
		gonbui.UpdateHTML(p.id, p.line("running"))
	}
	return false
}

// Done clears the transient line and displays a persistent summary (with
// extra appended), so the executed notebook keeps it.
func (p *Progress) Done(extra string) {
	if !gonbui.IsNotebook {
		return
	}
	gonbui.UpdateHTML(p.id, "")
	s := p.summary()
	if extra != "" {
		s = s[:len(s)-4] + " — " + html.EscapeString(extra) + "</p>"
	}
	gonbui.DisplayHTML(s)
	gonbui.Sync()
}
