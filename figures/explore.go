package figures

// Live widgets for notebook 09 ("Explore"): a figure redrawn as sliders
// move, where the parameter a slider sets is the lesson (the neighbour
// count of Isomap and LLE, the width of kernel PCA's RBF, the GTM's grid
// and basis width, the fraction of missing values in PPCA).
//
// A GoNB cell is a program; a widget is live only while that program runs.
// Explorer.Run therefore has two modes:
//
//   - with a browser attached (a reader running the cell in Jupyter): it
//     computes every state the sliders range over first (so a redraw only
//     draws), shows GoNB sliders (gonbui/widgets) and a Done button, and
//     redraws the figure on every slider move until Done is pressed or the
//     sliders rest for ExploreIdleEnv (default 10 minutes); then it leaves
//     the last figure as an ordinary output;
//   - headless (nbconvert, scripts/run-notebooks, no browser to move a
//     slider): it computes the initial state only and shows its figure as a
//     static output, so the executed notebook is the same file run after
//     run.
//
// Headless is known without waiting when HeadlessEnv is "1"
// (scripts/run-notebooks sets it); otherwise Run asks the front end to
// answer through GoNB's comms channel and takes silence within
// explorePing as headless.

import (
	"encoding/base64"
	"fmt"
	"html"
	"math"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/janpfeifer/gonb/gonbui"
	"github.com/janpfeifer/gonb/gonbui/comms"
	"github.com/janpfeifer/gonb/gonbui/dom"
	"github.com/janpfeifer/gonb/gonbui/widgets"
	"gonum.org/v1/plot/vg"
)

// HeadlessEnv, when "1", tells Explorer.Run that no browser is attached
// (scripts/run-notebooks exports it for nbconvert).
const HeadlessEnv = "DIMRED_NOTEBOOK_HEADLESS"

// ExploreIdleEnv, a Go duration ("90s"), is how long a live explorer waits
// for a slider move before it ends by itself; unset means 10 minutes.
const ExploreIdleEnv = "DIMRED_EXPLORE_IDLE"

// explorePing is how long Run waits for the front end to answer before it
// takes the notebook to be headless. The answer can take several of
// frontEnd's attempts on a loaded machine (GoNB's script gives up on a
// slow acknowledgement, and a new channel is asked for every
// exploreRetry). The wait is only paid where no front end answers and
// DIMRED_NOTEBOOK_HEADLESS is not set.
const explorePing = 15 * time.Second

// ExploreParam is one slider: its name and the label of each position.
type ExploreParam struct {
	Name    string   // what it sets, e.g. "k (neighbours)"
	Labels  []string // one per slider position, e.g. "4", "5", …
	Initial int      // the position shown first (and in the executed notebook)
}

// Explorer is a figure that sliders redraw. Compute prepares (and keeps)
// what one state needs and may be slow; Draw draws a prepared state and
// must be fast. A state is one position per parameter.
type Explorer struct {
	Name   string // word for HTML ids and comms addresses ("neighbours")
	Params []ExploreParam

	Compute func(state []int) error
	Draw    func(state []int) (*Figure, error)
}

// Initial returns the state shown first.
func (e *Explorer) Initial() []int {
	s := make([]int, len(e.Params))
	for i, p := range e.Params {
		s[i] = p.Initial
	}
	return s
}

// States returns every state, the first parameter varying slowest.
func (e *Explorer) States() [][]int {
	out := [][]int{{}}
	for _, p := range e.Params {
		var next [][]int
		for _, s := range out {
			for v := range p.Labels {
				next = append(next, append(append([]int(nil), s...), v))
			}
		}
		out = next
	}
	return out
}

// Describe names a state: "k (neighbours) = 7".
func (e *Explorer) Describe(state []int) string {
	parts := make([]string, len(state))
	for i, v := range state {
		parts[i] = e.Params[i].Name + " = " + e.Params[i].Labels[v]
	}
	return strings.Join(parts, ", ")
}

// Precompute computes every state, reporting each as a step of p (nil:
// none).
func (e *Explorer) Precompute(p *Progress) error {
	states := e.States()
	for i, s := range states {
		p.Step(e.Describe(s), i, len(states))
		if err := e.Compute(s); err != nil {
			return err
		}
	}
	return nil
}

// Frame computes (if needed) and draws a state and renders it as a PNG for
// a live redraw.
func (e *Explorer) Frame(state []int) (*Figure, []byte, error) {
	if err := e.Compute(state); err != nil {
		return nil, nil, err
	}
	f, err := e.Draw(state)
	if err != nil {
		return nil, nil, err
	}
	png, err := f.pngAt(PNGDPI)
	return f, png, err
}

// MustExplore runs an explorer a constructor returned, panicking on its
// error or Run's: figures.MustExplore(figures.ExploreNeighbours()).
func MustExplore(e *Explorer, err error) {
	if err != nil {
		panic(err)
	}
	if err := e.Run(); err != nil {
		panic(err)
	}
}

// Run shows the explorer in the notebook: live sliders when a browser is
// attached, else the initial state's figure (see the file's comment).
func (e *Explorer) Run() error {
	if !gonbui.IsNotebook || os.Getenv(HeadlessEnv) == "1" || !e.frontEnd() {
		return e.static(e.Initial())
	}
	return e.live()
}

func (e *Explorer) static(state []int) error {
	if err := e.Compute(state); err != nil {
		return err
	}
	f, err := e.Draw(state)
	if err != nil {
		return err
	}
	return Show(f)
}

func (e *Explorer) id(part string) string { return "dimred-explore-" + e.Name + "-" + part }

// frontEnd reports whether a browser answers through GoNB's comms within
// explorePing.
//
// GoNB opens its channel to the browser on the first comms call (here the
// Subscribe): it sends a script that opens a WebSocket and a comm, and the
// script gives up for good when the kernel's acknowledgement takes over
// 500 ms, which a loaded machine can make it do. The kernel notices only
// when asked again: a later comms call more than a second after the last
// message makes it send a heartbeat and, without an answer, the script
// anew. So while no answer has come, the front end is asked again every
// exploreRetry (comms.Start), and the ping below uses whichever gonb_comm
// is current.
func (e *Explorer) frontEnd() bool {
	addr := "/dimred/explore/" + e.Name + "/ping"
	got := make(chan struct{}, 1)
	sub := comms.Subscribe(addr, func(string, int) {
		select {
		case got <- struct{}{}:
		default:
		}
	})
	defer comms.Unsubscribe(sub)
	// gonb_comm appears once GoNB's WebSocket is open, and may be replaced
	// (a stale one after a page reload, or a new one after a failed
	// start): send the ping every 250 ms for a while, whichever gonb_comm
	// is current.
	dom.TransientJavascript(fmt.Sprintf(`(() => {
  const t0 = Date.now();
  const ping = () => {
    const c = globalThis.gonb_comm;
    if (c) { try { c.send(%q, 1); } catch (e) {} }
    if (Date.now() - t0 < %d) setTimeout(ping, 250);
  };
  ping();
})();`, addr, (explorePing + 5*time.Second).Milliseconds()))
	deadline := time.After(explorePing)
	retry := time.NewTicker(exploreRetry)
	defer retry.Stop()
	for {
		select {
		case <-got:
			return true
		case <-retry.C:
			comms.Start()
		case <-deadline:
			return false
		}
	}
}

// exploreRetry is how often frontEnd asks GoNB again to open its channel
// to the browser while no answer has come: more than GoNB's one second
// after which it checks a quiet channel with a heartbeat, and its 3 s wait
// for a new one to open.
const exploreRetry = 2 * time.Second

func idleTimeout() time.Duration {
	if d, err := time.ParseDuration(os.Getenv(ExploreIdleEnv)); err == nil && d > 0 {
		return d
	}
	return 10 * time.Minute
}

func (e *Explorer) live() error {
	p := NewProgress("preparing every slider position: " + e.Name)
	if err := e.Precompute(p); err != nil {
		p.Clear()
		return err
	}
	p.Clear()

	state := e.Initial()
	ctrl, fig := e.id("controls"), e.id("figure")
	var rows strings.Builder
	fmt.Fprintf(&rows, `<div id="%s" style="font-family: sans-serif; font-size: small">`, ctrl+"-box")
	for i := range e.Params {
		fmt.Fprintf(&rows, `<div id="%s-row%d"></div>`, ctrl, i)
	}
	fmt.Fprintf(&rows, `<div id="%s-buttons"></div></div>`, ctrl)
	gonbui.UpdateHtml(ctrl, rows.String())

	type move struct{ param, value int }
	moves := make(chan move, 64)
	for i, prm := range e.Params {
		row := fmt.Sprintf("%s-row%d", ctrl, i)
		dom.Append(row, fmt.Sprintf(`<span style="display:inline-block; min-width: 14em">%s</span>`, html.EscapeString(prm.Name)))
		s := widgets.Slider(0, len(prm.Labels)-1, prm.Initial).
			WithHtmlId(fmt.Sprintf("%s-slider%d", ctrl, i)).
			WithAddress(fmt.Sprintf("/dimred/explore/%s/param%d", e.Name, i)).
			AppendTo(row).Done()
		dom.Append(row, fmt.Sprintf(`&nbsp;<b id="%s-value%d">%s</b>`, ctrl, i, html.EscapeString(prm.Labels[prm.Initial])))
		ch := s.Listen().LatestOnly()
		defer ch.Close()
		go func(i int) {
			for v := range ch.C {
				moves <- move{i, v}
			}
		}(i)
	}
	done := widgets.Button("Done").WithHtmlId(ctrl + "-done").
		WithAddress("/dimred/explore/" + e.Name + "/done").AppendTo(ctrl + "-buttons").Done()
	doneCh := done.Listen()
	defer doneCh.Close()

	frames := 0
	redraw := func() error {
		t0 := time.Now()
		f, png, err := e.Frame(state)
		if err != nil {
			return err
		}
		ms := time.Since(t0).Seconds() * 1000
		frames++
		w, h := f.Size()
		gonbui.UpdateHtml(fig, fmt.Sprintf(
			`<div id="%s-box" data-state="%s" data-frame="%d" data-ms="%.0f"><img src="data:image/png;base64,%s" width="%d" height="%d" alt="%s"/>`+
				`<p style="font-size: small"><i>%s — drawn in %.0f ms</i></p></div>`,
			fig, html.EscapeString(e.Describe(state)), frames, ms, base64.StdEncoding.EncodeToString(png),
			int(math.Round(float64(w/vg.Inch)*PNGDPI)), int(math.Round(float64(h/vg.Inch)*PNGDPI)),
			html.EscapeString(f.Caption), html.EscapeString(e.Describe(state)), ms))
		return nil
	}
	if err := redraw(); err != nil {
		return err
	}
	idle := idleTimeout()
	timer := time.NewTimer(idle)
loop:
	for {
		select {
		case m := <-moves:
			if m.value < 0 || m.value >= len(e.Params[m.param].Labels) || state[m.param] == m.value {
				continue
			}
			state[m.param] = m.value
			dom.SetInnerText(fmt.Sprintf("%s-value%d", ctrl, m.param), e.Params[m.param].Labels[m.value])
			if err := redraw(); err != nil {
				return err
			}
			timer.Reset(idle)
		case <-doneCh.C:
			break loop
		case <-timer.C:
			break loop
		}
	}
	// Leave the last state as an ordinary (saved) output.
	gonbui.UpdateHtml(ctrl, "")
	gonbui.UpdateHtml(fig, "")
	return e.static(state)
}

// withStates gives e a Compute and a Draw that share compute's result for
// each slider state, kept in memory (a redraw then only draws), and
// returns e.
func withStates[S any](e *Explorer, compute func(s []int) (S, error), draw func(st S, s []int) (*Figure, error)) *Explorer {
	var states memo[S]
	get := func(s []int) (S, error) {
		return states.get(s, func() (S, error) { return compute(s) })
	}
	e.Compute = func(s []int) error {
		_, err := get(s)
		return err
	}
	e.Draw = func(s []int) (*Figure, error) {
		st, err := get(s)
		if err != nil {
			return nil, err
		}
		return draw(st, s)
	}
	return e
}

// memo keeps computed states, safe for the redraw goroutine.
type memo[T any] struct {
	mu sync.Mutex
	m  map[string]T
}

func (c *memo[T]) get(state []int, compute func() (T, error)) (T, error) {
	key := fmt.Sprint(state)
	c.mu.Lock()
	v, ok := c.m[key]
	c.mu.Unlock()
	if ok {
		return v, nil
	}
	v, err := compute()
	if err != nil {
		return v, err
	}
	c.mu.Lock()
	if c.m == nil {
		c.m = map[string]T{}
	}
	c.m[key] = v
	c.mu.Unlock()
	return v, nil
}
