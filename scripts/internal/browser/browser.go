// Package browser starts the headless Chromium that the project's browser
// checks drive through chromedp: scripts/booksite (printing the book's PDF,
// and TestBook, which opens every page of the built site) and
// scripts/livewidgets (TestLiveWidgets, which moves notebook 09's sliders
// in Jupyter). It holds what they share: finding the binary, its flags,
// start-up, polling a page for a condition and waiting for MathJax.
package browser

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// Find returns the Chromium (or Chrome) binary: $CHROMIUM, else the first
// of chromium, chromium-browser, google-chrome and google-chrome-stable on
// PATH, else "".
func Find() string {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// Options are the flags of a headless Chromium at chrome with its profile
// in userDir (a fresh temporary folder) and a width×height window: no
// sandbox, GPU, first-run pages, QUIC, background networking, component
// updates or sync, and no /dev/shm (small in containers). extra are
// appended.
func Options(chrome, userDir string, width, height int, extra ...chromedp.ExecAllocatorOption) []chromedp.ExecAllocatorOption {
	return append([]chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chrome),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(userDir),
		chromedp.WindowSize(width, height),
	}, extra...)
}

// Start launches the browser opts describe, within ctx, and returns the
// context of its first tab (new tabs: chromedp.NewContext of it) and the
// function that closes the browser. On error the browser is already
// closed.
func Start(ctx context.Context, opts []chromedp.ExecAllocatorOption) (context.Context, context.CancelFunc, error) {
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	bctx, bcancel := chromedp.NewContext(actx)
	stop := func() { bcancel(); acancel() }
	if err := chromedp.Run(bctx); err != nil {
		stop()
		return nil, nil, fmt.Errorf("starting the browser: %w", err)
	}
	return bctx, stop, nil
}

// WaitJS evaluates expr (a JavaScript expression) in ctx's tab every
// 200 ms until it is true, and fails after timeout.
func WaitJS(ctx context.Context, expr string, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	for {
		var ok bool
		if err := chromedp.Run(ctx, chromedp.Evaluate(expr, &ok)); err != nil {
			return fmt.Errorf("waiting for %s: %w", expr, err)
		}
		if ok {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s: %w", expr, ctx.Err())
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// MathJaxDoneJS is a promise that resolves to true once MathJax has
// started and emptied its queue (typesetting), or at once to false on a
// page without MathJax. (A StartupHook registered after start-up never
// fires, hence the polling of isReady.) Evaluate it with AwaitPromise.
const MathJaxDoneJS = `new Promise(resolve => {
  if (!window.MathJax || !MathJax.Hub) { resolve(false); return; }
  const wait = () => { if (MathJax.isReady) MathJax.Hub.Queue(() => resolve(true)); else setTimeout(wait, 50); };
  wait();
})`

// AwaitPromise makes chromedp.Evaluate wait for the promise its expression
// returns and yield the promise's value.
func AwaitPromise(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }

// ProfileDir returns a new folder for a browser profile (Options'
// userDir), removed when the test ends. Chromium's helper processes can
// still write to the profile for a moment after the browser has closed,
// and testing's TempDir then fails the test ("directory not empty": it
// did so once in scripts/test, after every page had passed); the removal
// here retries for up to 10 s and only logs what it could not remove.
func ProfileDir(t interface {
	Helper()
	Fatalf(format string, args ...any)
	Logf(format string, args ...any)
	Cleanup(func())
}) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "dimred-browser-profile-")
	if err != nil {
		t.Fatalf("a folder for the browser's profile: %v", err)
	}
	t.Cleanup(func() {
		var err error
		for i := 0; i < 40; i++ {
			if err = os.RemoveAll(dir); err == nil {
				return
			}
			time.Sleep(250 * time.Millisecond)
		}
		t.Logf("the browser's profile %s was not removed: %v", dir, err)
	})
	return dir
}

// TB is the part of testing.TB that Missing needs (this package is also
// linked into scripts/booksite's command, which does not import testing).
type TB interface {
	Helper()
	Fatalf(format string, args ...any)
	Skipf(format string, args ...any)
}

// Missing ends a test that needs a tool the machine lacks (what, e.g.
// "chromium (Debian package chromium)"): it fails under CI=true, where
// scripts/setup has installed everything, and skips otherwise, saying which
// test (test, e.g. "the browser test of the book's site") is skipped.
func Missing(t TB, what, test string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("CI=true but %s is missing: scripts/setup installs it", what)
	}
	t.Skipf("%s is missing: %s is skipped (scripts/setup installs it where apt-get is usable)", what, test)
}
