package livewidgets

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/dimredbook/book/scripts/internal/browser"
)

// widget is one explorer cell of notebook 09 and the slider moves the test
// makes: each move sets slider param to position value, and the figure's
// data-state must then contain want.
type widget struct {
	name    string // figures.Explorer.Name
	moves   []move
	caption string // in the static figure's caption after Done (the last state)
}

type move struct {
	param, value int
	want         string // in the redrawn figure's state
}

var widgetCells = []widget{
	{"neighbours", []move{{0, 8, "= 13"}, {0, 14, "= 28"}}, "k = 28."},
	{"kernel-width", []move{{0, 8, "4 × book"}, {0, 0, "0.25 × book"}}, "ℓ = 0.25 × the book"},
	{"gtm", []move{{0, 5, "20 × 20"}, {1, 0, "= 0.05"}}, "20 × 20 latent grid"},
	{"ppca-missing", []move{{0, 8, "= 80%"}, {0, 0, "= 0%"}}, "with 0% of the entries"},
}

func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// server is a running `jupyter notebook` in its own process group.
type server struct {
	cmd     *exec.Cmd
	base    string // http://127.0.0.1:port
	token   string
	runtime string // JUPYTER_RUNTIME_DIR: the kernels' connection files
	log     *lockedBuffer
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func (s *server) api(method, path string) (*http.Response, error) {
	req, err := http.NewRequest(method, s.base+path, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "token "+s.token)
	c := &http.Client{Timeout: 10 * time.Second}
	return c.Do(req)
}

// stop shuts the kernels down through the REST API, stops the server's
// process group (SIGTERM, then SIGKILL after 10 s) and kills, by process
// id, any kernel still running from this server's runtime folder (Jupyter
// starts kernels in their own session, outside the server's group).
func (s *server) stop(t *testing.T) {
	if r, err := s.api("GET", "/api/kernels"); err == nil {
		var ks []struct {
			ID string `json:"id"`
		}
		_ = json.NewDecoder(r.Body).Decode(&ks)
		r.Body.Close()
		for _, k := range ks {
			if r, err := s.api("DELETE", "/api/kernels/"+k.ID); err == nil {
				r.Body.Close()
			}
		}
	}
	pgid := s.cmd.Process.Pid
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Logf("jupyter did not stop on SIGTERM: killing its process group %d", pgid)
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		<-done
	}
	// Kernels left behind: their command line names a connection file in
	// s.runtime.
	deadline := time.Now().Add(10 * time.Second)
	for {
		pids := kernelPids(s.runtime)
		if len(pids) == 0 {
			return
		}
		if time.Now().After(deadline) {
			for _, pid := range pids {
				t.Logf("killing kernel process %d left running", pid)
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// kernelPids lists the processes whose command line mentions dir.
func kernelPids(dir string) []int {
	ents, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && bytes.Contains(b, []byte(dir)) {
			pids = append(pids, pid)
		}
	}
	return pids
}

func startJupyter(t *testing.T, nbdir string) *server {
	tok := make([]byte, 16)
	if _, err := rand.Read(tok); err != nil {
		t.Fatal(err)
	}
	port := freePort(t)
	s := &server{base: fmt.Sprintf("http://127.0.0.1:%d", port), token: hex.EncodeToString(tok), log: &lockedBuffer{}}
	s.runtime = t.TempDir()
	gopath, _ := exec.Command("go", "env", "GOPATH").Output()
	env := []string{}
	for _, kv := range os.Environ() {
		// The kernel must look for a browser: never headless here.
		if strings.HasPrefix(kv, "DIMRED_NOTEBOOK_HEADLESS=") || strings.HasPrefix(kv, "PATH=") {
			continue
		}
		env = append(env, kv)
	}
	env = append(env,
		"PATH="+filepath.Join(strings.TrimSpace(string(gopath)), "bin")+string(os.PathListSeparator)+os.Getenv("PATH"),
		"JUPYTER_RUNTIME_DIR="+s.runtime,
		"JUPYTER_CONFIG_DIR="+t.TempDir(), // no user configuration
		"PYDEVD_DISABLE_FILE_VALIDATION=1",
		// A cell whose Done press is lost still ends (the test waits less).
		"DIMRED_EXPLORE_IDLE=150s",
	)
	s.cmd = exec.Command("jupyter", "notebook", "--no-browser", "--allow-root",
		"--ip=127.0.0.1", fmt.Sprintf("--port=%d", port), "--port-retries=0",
		"--NotebookApp.token="+s.token, "--notebook-dir="+nbdir)
	s.cmd.Env = env
	s.cmd.Stdout, s.cmd.Stderr = s.log, s.log
	// Its own process group (stopped as a whole), killed too if the test
	// process dies without cleaning up.
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := s.cmd.Start(); err != nil {
		t.Fatalf("starting jupyter notebook: %v", err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		r, err := s.api("GET", "/api/status")
		if err == nil {
			r.Body.Close()
			if r.StatusCode == http.StatusOK {
				return s
			}
		}
		if time.Now().After(deadline) {
			s.stop(t)
			t.Fatalf("jupyter notebook did not answer on %s within 60 s:\n%s", s.base, s.log.String())
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// figureJS reads the live figure's state, frame counter, kernel-side draw
// time and a hash of the PNG's data URI.
const figureJS = `(() => {
  const b = document.getElementById(%q);
  if (!b) return null;
  const img = b.querySelector('img');
  const src = img ? img.getAttribute('src') : '';
  let h = 2166136261;
  for (let i = 0; i < src.length; i++) { h ^= src.charCodeAt(i); h = Math.imul(h, 16777619) >>> 0; }
  return {state: b.dataset.state, frame: +b.dataset.frame, ms: +b.dataset.ms, hash: h, len: src.length};
})()`

type figState struct {
	State string  `json:"state"`
	Frame int     `json:"frame"`
	MS    float64 `json:"ms"`
	Hash  uint32  `json:"hash"`
	Len   int     `json:"len"`
}

// cellErrorsJS lists a cell's error outputs (and panics on stderr).
const cellErrorsJS = `(() => {
  const c = Jupyter.notebook.get_cell(%d);
  return c.output_area.outputs.filter(o => o.output_type === 'error' ||
    (o.output_type === 'stream' && o.name === 'stderr' && /panic:|exit status/.test(o.text)))
    .map(o => o.output_type === 'error' ? o.ename + ': ' + o.evalue : o.text);
})()`

func cellErrors(ctx context.Context, i int) []string {
	var errs []string
	_ = chromedp.Run(ctx, chromedp.Evaluate(fmt.Sprintf(cellErrorsJS, i), &errs))
	return errs
}

// runCell executes code cell i and returns without waiting.
func runCell(ctx context.Context, i int) error {
	return chromedp.Run(ctx, chromedp.Evaluate(fmt.Sprintf(`Jupyter.notebook.get_cell(%d).execute(), true`, i), nil))
}

// cellDone is true once cell i's execution reply has set its prompt number.
func cellDone(i int) string {
	return fmt.Sprintf(`typeof Jupyter.notebook.get_cell(%d).input_prompt_number === 'number'`, i)
}

// slowFirstCommJS delays by a second every message the page's next
// WebSocket to a kernel's channels receives.
const slowFirstCommJS = `(() => {
  const WS = window.WebSocket;
  let first = true;
  window.WebSocket = function(url, protocols) {
    const ws = protocols === undefined ? new WS(url) : new WS(url, protocols);
    if (first && String(url).includes('/channels')) {
      first = false;
      console.warn('test: the messages of WebSocket ' + url + ' arrive 1 s late');
      Object.defineProperty(ws, 'onmessage', {
        set(f) { ws.addEventListener('message', e => setTimeout(() => f(e), 1000)); },
        get() { return null; },
      });
    }
    return ws;
  };
  window.WebSocket.prototype = WS.prototype;
  Object.assign(window.WebSocket, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
  return true;
})()`

// verdicts keeps the test's failure messages, to repeat them at the end of
// its output.
type verdicts struct {
	mu   sync.Mutex
	msgs []string
}

func (v *verdicts) errorf(t *testing.T, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	v.mu.Lock()
	v.msgs = append(v.msgs, t.Name()+": "+msg)
	v.mu.Unlock()
	t.Error(msg)
}

func (v *verdicts) fatalf(t *testing.T, format string, args ...any) {
	t.Helper()
	v.errorf(t, format, args...)
	t.FailNow()
}

func (v *verdicts) String() string {
	v.mu.Lock()
	defer v.mu.Unlock()
	return strings.Join(v.msgs, "\n")
}

// consoleLog keeps the browser's console errors and warnings, uncaught
// exceptions, and every message that names GoNB's gonb_comm.
type consoleLog struct {
	mu    sync.Mutex
	t0    time.Time
	lines []string
}

func (c *consoleLog) listen(ev any) {
	var kind, text string
	switch ev := ev.(type) {
	case *cdpruntime.EventConsoleAPICalled:
		var parts []string
		for _, a := range ev.Args {
			if a.Value != nil {
				parts = append(parts, string(a.Value))
			} else {
				parts = append(parts, a.Description)
			}
		}
		kind, text = string(ev.Type), strings.Join(parts, " ")
		if kind != "error" && kind != "warning" && !strings.Contains(text, "gonb_comm") {
			return
		}
	case *cdpruntime.EventExceptionThrown:
		kind, text = "exception", ev.ExceptionDetails.Text
		if ev.ExceptionDetails.Exception != nil {
			text += " " + ev.ExceptionDetails.Exception.Description
		}
	default:
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.t0.IsZero() {
		c.t0 = time.Now()
	}
	c.lines = append(c.lines, fmt.Sprintf("%6.1f s %s: %s", time.Since(c.t0).Seconds(), kind, text))
}

// String is the last 40 lines.
func (c *consoleLog) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	l := c.lines
	if len(l) > 40 {
		l = l[len(l)-40:]
	}
	if len(l) == 0 {
		return "(nothing)"
	}
	return strings.Join(l, "\n")
}

func TestLiveWidgets(t *testing.T) {
	if os.Getenv("DIMRED_BROWSER_TEST") != "1" {
		t.Skip("the live-widget browser test runs only when asked: DIMRED_BROWSER_TEST=1 (scripts/test sets it)")
	}
	chrome := browser.Find()
	if chrome == "" {
		browser.Missing(t, "chromium (Debian package chromium)", "the live-widget browser test")
	}
	if _, err := exec.LookPath("jupyter"); err != nil {
		browser.Missing(t, "jupyter (Debian package jupyter-notebook)", "the live-widget browser test")
	}
	if out, err := exec.Command("jupyter", "kernelspec", "list").Output(); err != nil || !bytes.Contains(out, []byte("gonb")) {
		browser.Missing(t, "the GoNB kernel", "the live-widget browser test")
	}
	// The test drives Notebook 6's page (its Jupyter.notebook API): Debian's
	// jupyter-notebook. Notebook 7 is JupyterLab-based and has no such API.
	if out, err := exec.Command("jupyter", "notebook", "--version").Output(); err != nil || !strings.HasPrefix(strings.TrimSpace(string(out)), "6.") {
		browser.Missing(t, fmt.Sprintf("Jupyter Notebook 6 (found %q)", strings.TrimSpace(string(out))), "the live-widget browser test")
	}
	start := time.Now()
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	nbdir := filepath.Join(repo, "notebooks")
	// A copy in the notebooks folder (so the notebook's first cell finds the
	// module at ${GONB_DIR}/..), removed at the end; the committed notebook
	// is never opened, so nothing the browser does can be saved over it.
	src, err := os.ReadFile(filepath.Join(nbdir, "09-explore.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	name := fmt.Sprintf("09-explore-browser-test-%d.ipynb", os.Getpid())
	copyPath := filepath.Join(nbdir, name)
	if err := os.WriteFile(copyPath, src, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		os.Remove(copyPath)
		os.Remove(filepath.Join(nbdir, ".ipynb_checkpoints", strings.TrimSuffix(name, ".ipynb")+"-checkpoint.ipynb"))
		os.Remove(filepath.Join(nbdir, ".ipynb_checkpoints")) // only if empty (Jupyter may have made it)
	})

	var v verdicts
	var console consoleLog
	srv := startJupyter(t, nbdir)
	defer func() {
		t0 := time.Now()
		srv.stop(t)
		t.Logf("jupyter and its kernel stopped in %.1f s", time.Since(t0).Seconds())
		if t.Failed() {
			log := srv.log.String()
			if len(log) > 6000 {
				log = log[len(log)-6000:]
			}
			t.Logf("jupyter's log (end):\n%s", log)
			// CI shows the end of the output: the browser's console and
			// the failures come last.
			t.Logf("the browser's console (errors, warnings and GoNB's messages):\n%s", console.String())
			t.Logf("failed: %s", v.String())
		}
	}()
	t.Logf("jupyter notebook up on %s in %.1f s", srv.base, time.Since(start).Seconds())

	// Stop before go test's own -timeout, so that the deferred clean-up
	// (kernel, jupyter's process group, the notebook copy) still runs.
	budget := 25 * time.Minute
	if dl, ok := t.Deadline(); ok {
		budget = min(budget, time.Until(dl)-45*time.Second)
	}
	ctx, cancel := context.WithTimeout(context.Background(), budget)
	defer cancel()
	bctx, stop, err := browser.Start(ctx, browser.Options(chrome, browser.ProfileDir(t), 1400, 1000,
		// a background tab's timers must not be throttled while the kernel works
		chromedp.Flag("disable-background-timer-throttling", true),
		chromedp.Flag("disable-renderer-backgrounding", true)))
	if err != nil {
		v.fatalf(t, "%s: %v", chrome, err)
	}
	defer stop()
	chromedp.ListenTarget(bctx, console.listen)

	url := srv.base + "/notebooks/" + name + "?token=" + srv.token
	if err := chromedp.Run(bctx, chromedp.Navigate(url)); err != nil {
		v.fatalf(t, "opening %s: %v", url, err)
	}
	if err := browser.WaitJS(bctx, `!!(window.Jupyter && Jupyter.notebook && Jupyter.notebook.kernel && Jupyter.notebook.kernel.is_connected())`, 2*time.Minute); err != nil {
		v.fatalf(t, "the notebook's GoNB kernel did not connect: %v", err)
	}
	// No autosave (the copy is deleted anyway), no stale outputs.
	if err := chromedp.Run(bctx, chromedp.Evaluate(`Jupyter.notebook.set_autosave_interval(0), Jupyter.notebook.clear_all_output(), true`, nil)); err != nil {
		v.fatalf(t, "%v", err)
	}
	t.Logf("notebook open, kernel connected, at %.1f s", time.Since(start).Seconds())

	// Code cells in order: the module cell, the imports, then the widgets.
	var code []int
	if err := chromedp.Run(bctx, chromedp.Evaluate(`Jupyter.notebook.get_cells().map((c, i) => c.cell_type === 'code' ? i : -1).filter(i => i >= 0)`, &code)); err != nil {
		v.fatalf(t, "%v", err)
	}
	if len(code) != 2+len(widgetCells) {
		v.fatalf(t, "notebook 09 has %d code cells, want 2 set-up cells and %d widget cells", len(code), len(widgetCells))
	}
	for _, i := range code[:2] {
		if err := runCell(bctx, i); err != nil {
			v.fatalf(t, "%v", err)
		}
		if err := browser.WaitJS(bctx, cellDone(i), 3*time.Minute); err != nil {
			v.fatalf(t, "set-up cell %d: %v", i, err)
		}
		if errs := cellErrors(bctx, i); len(errs) > 0 {
			v.fatalf(t, "set-up cell %d failed: %v", i, errs)
		}
	}

	// The page's first GoNB WebSocket (the one GoNB's script opens for
	// comms; the notebook's own kernel connection is already open) gets its
	// messages a second late, as on a loaded machine: GoNB's script then
	// gives up on the kernel's acknowledgement (it waits 500 ms), and the
	// first explorer must get a new channel opened (figures' frontEnd asks
	// again) instead of falling back to a static figure. CI failed so
	// before the explorer asked again.
	if err := chromedp.Run(bctx, chromedp.Evaluate(slowFirstCommJS, nil)); err != nil {
		v.fatalf(t, "%v", err)
	}
	for wi, w := range widgetCells {
		cell := code[2+wi]
		ok := t.Run(w.name, func(t *testing.T) {
			t0 := time.Now()
			if err := runCell(bctx, cell); err != nil {
				v.fatalf(t, "%v", err)
			}
			ctrl := "dimred-explore-" + w.name + "-controls"
			figID := "dimred-explore-" + w.name + "-figure-box"
			// Precomputing every slider position can take a minute cold.
			appear := fmt.Sprintf(`!!document.getElementById(%q) && !!document.getElementById(%q) || %s`, ctrl+"-done", figID, cellDone(cell))
			if err := browser.WaitJS(bctx, appear, 8*time.Minute); err != nil {
				v.fatalf(t, "%v", err)
			}
			var fs *figState
			if err := chromedp.Run(bctx, chromedp.Evaluate(fmt.Sprintf(figureJS, figID), &fs)); err != nil {
				v.fatalf(t, "%v", err)
			}
			if fs == nil {
				v.fatalf(t, "the cell ended without live widgets (errors: %v): did the kernel find the browser?", cellErrors(bctx, cell))
			}
			t.Logf("%s: sliders and first figure (%s) after %.1f s", w.name, fs.State, time.Since(t0).Seconds())
			for _, m := range w.moves {
				slider := fmt.Sprintf("%s-slider%d", ctrl, m.param)
				t1 := time.Now()
				if err := chromedp.Run(bctx, chromedp.Evaluate(fmt.Sprintf(`(() => {
  const el = document.getElementById(%q);
  el.value = %d;
  el.dispatchEvent(new Event('input', {bubbles: true}));
  el.dispatchEvent(new Event('change', {bubbles: true}));
  return true;
})()`, slider, m.value), nil)); err != nil {
					v.fatalf(t, "%v", err)
				}
				changed := fmt.Sprintf(`(() => { const b = document.getElementById(%q); return !!b && +b.dataset.frame > %d; })()`, figID, fs.Frame)
				if err := browser.WaitJS(bctx, changed, 30*time.Second); err != nil {
					v.fatalf(t, "moving %s to %d: the figure was not redrawn: %v", slider, m.value, err)
				}
				round := time.Since(t1)
				var after *figState
				if err := chromedp.Run(bctx, chromedp.Evaluate(fmt.Sprintf(figureJS, figID), &after)); err != nil || after == nil {
					v.fatalf(t, "reading the redrawn figure: %v", err)
				}
				if after.Hash == fs.Hash && after.Len == fs.Len {
					v.errorf(t, "moving %s to %d redrew the same PNG", slider, m.value)
				}
				if !strings.Contains(after.State, m.want) {
					v.errorf(t, "after moving %s to %d the figure shows %q, want it to contain %q", slider, m.value, after.State, m.want)
				}
				t.Logf("%s: slider %d → %d: redrawn (%s) in %.0f ms in the kernel (draw + PNG), %.0f ms from the input event to the new image",
					w.name, m.param, m.value, after.State, after.MS, round.Seconds()*1000)
				fs = after
			}
			// Done ends the cell and leaves the last figure as a static output.
			if err := chromedp.Run(bctx, chromedp.Evaluate(fmt.Sprintf(`document.getElementById(%q).click(), true`, ctrl+"-done"), nil)); err != nil {
				v.fatalf(t, "%v", err)
			}
			if err := browser.WaitJS(bctx, cellDone(cell), time.Minute); err != nil {
				v.fatalf(t, "after Done the cell did not finish: %v", err)
			}
			if errs := cellErrors(bctx, cell); len(errs) > 0 {
				v.fatalf(t, "the cell failed: %v", errs)
			}
			var final struct {
				Images  int    `json:"images"`
				Live    bool   `json:"live"`
				Caption string `json:"caption"`
			}
			if err := chromedp.Run(bctx, chromedp.Evaluate(fmt.Sprintf(`(() => {
  const c = Jupyter.notebook.get_cell(%d);
  const outs = c.output_area.outputs;
  const caps = outs.map(o => (o.data && o.data['text/html']) || '').filter(h => h.includes('<b>Figure'));
  return {images: outs.filter(o => o.data && o.data['image/png']).length,
          live: !!document.getElementById(%q),
          caption: caps.length ? caps[caps.length - 1] : ''};
})()`, cell, ctrl+"-done"), &final)); err != nil {
				v.fatalf(t, "%v", err)
			}
			if final.Images != 1 || final.Live {
				v.errorf(t, "after Done: %d static images (want 1), controls still shown: %v", final.Images, final.Live)
			}
			if !strings.Contains(final.Caption, w.caption) {
				v.errorf(t, "after Done the static figure's caption is %q, want it to contain %q (the last state)", final.Caption, w.caption)
			}
			t.Logf("%s: done, cell finished after %.1f s", w.name, time.Since(t0).Seconds())
		})
		if !ok {
			break // a blocked kernel would fail every later cell
		}
	}
	t.Logf("live-widget browser test: %.1f s in all", time.Since(start).Seconds())
}
