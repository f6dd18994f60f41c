package main

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/dimredbook/book/scripts/internal/browser"
)

// TestBook opens every page of the built site (scripts/book) in headless
// Chromium, served over HTTP by a plain file server, and checks that
//
//   - no console error and no uncaught exception is logged;
//   - no request fails or goes to another host than the site's;
//   - every <img> loaded (naturalWidth > 0);
//   - MathJax typeset every formula: every TeX script has its rendered
//     frame, no MathJax error, no raw $…$, \(…\) or \[…\] left in the
//     rendered markdown;
//   - every interactive view (an ECharts iframe) drew a canvas;
//   - every link into the site resolves, with its #fragment, and chapter
//     pages link to their previous and next chapters;
//   - one chapter opened from the folder (file://) passes the same checks
//     but the links;
//
// and saves screenshots of each chapter's first screen (NAME.png) and
// first figure (NAME-figure.png) in the site's folder screenshots/.
//
// It runs only when asked: BOOK_DIR names the site (relative to the
// repository root) or BOOK_REQUIRE=1 (site in build/book, required), as
// scripts/book --test and scripts/test do; plain go test ./... skips it.
// Without Chromium it skips with a message, except under CI=true, where it
// fails.
func TestBook(t *testing.T) {
	dir := os.Getenv("BOOK_DIR")
	require := os.Getenv("BOOK_REQUIRE") == "1"
	if dir == "" && !require {
		t.Skip("the browser test runs on a built site: scripts/book --test (or BOOK_DIR=build/book go test ./scripts/booksite)")
	}
	if dir == "" {
		dir = "build/book"
	}
	if !filepath.IsAbs(dir) {
		// a path relative to the repository root, as scripts/book passes it
		dir = filepath.Join("..", "..", dir)
	}
	mb, err := os.ReadFile(filepath.Join(dir, "pages.json"))
	if err != nil {
		if require {
			t.Fatalf("BOOK_REQUIRE=1 but there is no built site: %v (run scripts/book)", err)
		}
		t.Skipf("no built site in %s: run scripts/book --test", dir)
	}
	chrome := browser.Find()
	if chrome == "" {
		browser.Missing(t, "chromium (Debian package chromium)", "the browser test of the book's site")
	}
	var man manifest
	if err := json.Unmarshal(mb, &man); err != nil {
		t.Fatal(err)
	}
	if len(man.Pages) == 0 {
		t.Fatal("pages.json lists no pages")
	}
	shots := filepath.Join(dir, "screenshots")
	if err := os.MkdirAll(shots, 0o755); err != nil {
		t.Fatal(err)
	}

	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	defer srv.Close()

	// A minute a page at most (they take seconds), for the browser as a whole.
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(len(man.Pages)+2)*time.Minute)
	defer cancel()
	bctx, stop, err := browser.Start(ctx, browser.Options(chrome, browser.ProfileDir(t), 1280, 900))
	if err != nil {
		t.Fatalf("%s: %v", chrome, err)
	}
	defer stop()

	links := &linkChecker{base: srv.URL, pages: map[string]string{}}
	pageLinks := map[string][]string{} // page → the links on it
	chapters := 0
	typeset := map[string]typesetChapter{} // chapter page → its typeset content, for the PDF
	printed := false
	for i, p := range man.Pages {
		if !p.Chapter && !printed && man.PDF != "" {
			// Every chapter is typeset: print the book (the index links to it).
			printed = true
			t.Run("print", func(t *testing.T) { printForTest(t, bctx, srv.URL, dir, typeset) })
		}
		t.Run(p.Path, func(t *testing.T) {
			start := time.Now()
			res := openPage(t, bctx, srv.URL+"/"+p.Path, p)
			shot := filepath.Join(shots, strings.TrimSuffix(p.Path, ".html")+".png")
			if err := os.WriteFile(shot, res.screenshot, 0o644); err != nil {
				t.Error(err)
			}
			pageLinks[p.Path] = res.links
			if p.Chapter {
				typeset[p.Path] = res.typeset
			}
			for _, a := range p.Anchors {
				if !res.ids[a] {
					t.Errorf("figure anchor #%s missing", a)
				}
			}
			if p.Chapter {
				chapters++
				if res.figureShot != nil {
					shot = strings.TrimSuffix(shot, ".png") + "-figure.png"
					if err := os.WriteFile(shot, res.figureShot, 0o644); err != nil {
						t.Error(err)
					}
				}
				// Previous/next navigation between chapters, in pages.json order.
				var prev, next string
				if i > 0 && man.Pages[i-1].Chapter {
					prev = man.Pages[i-1].Path
				}
				if i+1 < len(man.Pages) && man.Pages[i+1].Chapter {
					next = man.Pages[i+1].Path
				}
				if res.prev != resolve(srv.URL, prev) || res.next != resolve(srv.URL, next) {
					t.Errorf("navigation: prev %q next %q, want %q and %q", res.prev, res.next, prev, next)
				}
			}
			for _, l := range res.links {
				if err := links.check(l, srv.URL+"/"+p.Path, res.ids); err != nil {
					t.Errorf("link %s: %v", l, err)
				}
			}
			t.Logf("%s: %d images, %d formulas, %d charts, %d links, %.1f s",
				p.Path, res.images, res.formulas, res.charts, len(res.links), time.Since(start).Seconds())
		})
	}
	if chapters == 0 {
		t.Error("pages.json lists no chapter")
	}

	// Every figure a chapter shows from the report (paper figures P2–P9
	// included) is linked from the index's and the report's "shown in".
	for _, p := range man.Pages {
		for _, a := range p.Anchors {
			want := srv.URL + "/" + p.Path + "#" + a
			for _, from := range []string{"index.html", "report.html"} {
				if !contains(pageLinks[from], want) {
					t.Errorf("%s does not link to %s#%s", from, p.Path, a)
				}
			}
		}
	}

	t.Run("svg-font", func(t *testing.T) { testSVGFont(t, bctx, srv.URL, dir) })
	t.Run("search", func(t *testing.T) { testSearch(t, bctx, srv.URL) })
	t.Run("dark", func(t *testing.T) { testDark(t, bctx, srv.URL, man, shots) })
	if man.PDF != "" || require {
		t.Run("pdf", func(t *testing.T) { testPDF(t, dir, man, shots) })
	}

	// Opened straight from the folder (file://), a chapter must work as well:
	// the one with the most interactive views, every check but the links.
	best := -1
	for i, p := range man.Pages {
		if p.Chapter && (best < 0 || p.Interactive > man.Pages[best].Interactive) {
			best = i
		}
	}
	if best >= 0 {
		p := man.Pages[best]
		t.Run("file/"+p.Path, func(t *testing.T) {
			abs, err := filepath.Abs(dir)
			if err != nil {
				t.Fatal(err)
			}
			p.Chapter = false // no screenshot
			res := openPage(t, bctx, "file://"+filepath.ToSlash(abs)+"/"+p.Path, p)
			t.Logf("file://…/%s: %d images, %d formulas, %d charts", p.Path, res.images, res.formulas, res.charts)
		})
	}
}

func resolve(base, path string) string {
	if path == "" {
		return ""
	}
	return base + "/" + path
}

// pageResult is what the browser found on a page.
type pageResult struct {
	images, formulas, charts int
	links                    []string
	ids                      map[string]bool
	prev, next               string
	screenshot, figureShot   []byte
	typeset                  typesetChapter
}

// checkJS gathers the page's checks in one evaluation.
const checkJS = `(() => {
  const r = {};
  const imgs = Array.from(document.images);
  r.images = imgs.length;
  r.brokenImages = imgs.filter(i => !i.complete || i.naturalWidth === 0)
    .map(i => (i.currentSrc || i.src).slice(0, 120));
  const tex = Array.from(document.querySelectorAll('script[type^="math/tex"]'));
  r.formulas = tex.length;
  r.untypeset = tex.filter(s => !document.getElementById(s.id + '-Frame'))
    .map(s => s.textContent.slice(0, 80));
  r.mathErrors = Array.from(document.querySelectorAll('.MathJax_Error, .mjx-merror, merror'))
    .map(e => e.textContent.slice(0, 80));
  if (document.body.innerText.includes('Math Processing Error')) r.mathErrors.push('Math Processing Error');
  // Raw TeX left in the rendered markdown (MathJax's own nodes and code excluded).
  r.rawTeX = [];
  const skip = n => n.closest('script, style, code, pre, .MathJax_CHTML, .mjx-chtml, .MathJax_Preview, .MJX_Assistive_MathML');
  for (const md of document.querySelectorAll('.jp-RenderedMarkdown, .jp-MarkdownOutput')) {
    let text = '';
    const w = document.createTreeWalker(md, NodeFilter.SHOW_TEXT);
    for (let n = w.nextNode(); n; n = w.nextNode()) if (!skip(n.parentElement)) text += n.textContent;
    const m = text.match(/\$\$[\s\S]+?\$\$|\$[^$\s][^$]*\$|\\\([\s\S]+?\\\)|\\\[[\s\S]+?\\\]/);
    if (m) r.rawTeX.push(m[0].slice(0, 80));
  }
  // Raw Markdown left in the visible text (code, maths and scripts excluded):
  // link syntax, **strong**, backquoted code.
  r.rawMarkdown = [];
  {
    // (Go documentation is not Markdown: its backquotes are literal, as on pkg.go.dev.)
    const skipMd = n => n.closest('script, style, code, pre, kbd, samp, textarea, iframe, .MathJax_CHTML, .mjx-chtml, .MathJax_Preview, .MJX_Assistive_MathML, .book-src, .book-doc, .book-items');
    const w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    let text = '';
    for (let n = w.nextNode(); n; n = w.nextNode()) if (!skipMd(n.parentElement)) text += n.textContent + ' ';
    const re = /\[[^\]\n]{1,200}\]\([^)\s]*\)|\]\(|\*\*[^*\s][^*\n]{0,200}\*\*|\x60[^\x60\n]{1,200}\x60/g;
    for (const m of text.matchAll(re)) {
      r.rawMarkdown.push(text.slice(Math.max(0, m.index - 40), m.index + 80));
      if (r.rawMarkdown.length >= 5) break;
    }
  }
  // Go highlighted as Go: "//" starts a comment, not an operator, and no
  // string token starts at an apostrophe and runs on (a rune literal is short).
  r.badHighlight = Array.from(document.querySelectorAll('.highlight span'))
    .filter(e => (e.textContent.trim() === '//' && !e.className.startsWith('c')) ||
                 (/^s/.test(e.className) && e.textContent.startsWith("'") && e.textContent.length > 10))
    .slice(0, 5).map(e => e.className + ': ' + e.textContent.slice(0, 60));
  r.contrast = ` + contrastJS + `;
  // Code wraps: no code box scrolls or clips its lines sideways.
  r.clippedCode = Array.from(document.querySelectorAll('.highlight pre, .jp-OutputArea-output pre'))
    .filter(e => e.scrollWidth > e.clientWidth + 2).slice(0, 3).map(e => e.textContent.slice(0, 60));
  // Every section heading of a chapter links to its source part file.
  r.headings = document.querySelectorAll('.jp-RenderedMarkdown h2, .jp-RenderedMarkdown h3').length;
  r.sourceLinks = document.querySelectorAll('p.book-source a[href*="source/notebooks/src/"]').length;
  r.links = Array.from(document.querySelectorAll('a[href]')).map(a => a.href);
  r.ids = Array.from(document.querySelectorAll('[id]')).map(e => e.id)
    .concat(Array.from(document.querySelectorAll('a[name]')).map(e => e.name));
  const prev = document.querySelector('nav.book-nav-top a[rel=prev]');
  const next = document.querySelector('nav.book-nav-top a[rel=next]');
  r.prev = prev ? prev.href : '';
  r.next = next ? next.href : '';
  return r;
})()`

// chartsJS counts the iframes whose document has a drawn (non-empty) canvas.
const chartsJS = `(() => {
  const fr = Array.from(document.querySelectorAll('iframe'));
  let drawn = 0;
  for (const f of fr) {
    const d = f.contentDocument;
    const c = d && d.querySelector('canvas');
    if (c && c.width > 0 && c.height > 0) drawn++;
  }
  return {iframes: fr.length, drawn: drawn};
})()`

func openPage(t *testing.T, bctx context.Context, pageURL string, p pageInfo) pageResult {
	t.Helper()
	ctx, cancel := chromedp.NewContext(bctx) // a new tab per page
	defer cancel()
	ctx, tcancel := context.WithTimeout(ctx, 90*time.Second)
	defer tcancel()

	var mu sync.Mutex
	var problems []string
	urls := map[network.RequestID]string{}
	origin := strings.TrimSuffix(pageURL, "/"+p.Path)
	chromedp.ListenTarget(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch ev := ev.(type) {
		case *network.EventRequestWillBeSent:
			u := ev.Request.URL
			urls[ev.RequestID] = u
			if !strings.HasPrefix(u, origin+"/") && !strings.HasPrefix(u, "data:") &&
				!strings.HasPrefix(u, "about:") && !strings.HasPrefix(u, "blob:") {
				problems = append(problems, "request to another host: "+u)
			}
		case *network.EventLoadingFailed:
			problems = append(problems, fmt.Sprintf("request failed: %s: %s", urls[ev.RequestID], ev.ErrorText))
		case *network.EventResponseReceived:
			if ev.Response.Status >= 400 {
				problems = append(problems, fmt.Sprintf("HTTP %d: %s", int(ev.Response.Status), ev.Response.URL))
			}
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.APITypeError || ev.Type == runtime.APITypeAssert {
				var args []string
				for _, a := range ev.Args {
					if a.Value != nil {
						args = append(args, string(a.Value))
					} else {
						args = append(args, a.Description)
					}
				}
				problems = append(problems, "console error: "+strings.Join(args, " "))
			}
		case *runtime.EventExceptionThrown:
			d := ev.ExceptionDetails
			msg := d.Text
			if d.Exception != nil {
				msg += " " + d.Exception.Description
			}
			problems = append(problems, fmt.Sprintf("uncaught exception: %s (%s:%d)", msg, d.URL, d.LineNumber))
		case *cdplog.EventEntryAdded:
			if ev.Entry.Level == cdplog.LevelError {
				problems = append(problems, fmt.Sprintf("console %s error: %s %s", ev.Entry.Source, ev.Entry.Text, ev.Entry.URL))
			}
		}
	})

	var raw struct {
		Images       int      `json:"images"`
		BrokenImages []string `json:"brokenImages"`
		Formulas     int      `json:"formulas"`
		Untypeset    []string `json:"untypeset"`
		MathErrors   []string `json:"mathErrors"`
		RawTeX       []string `json:"rawTeX"`
		RawMarkdown  []string `json:"rawMarkdown"`
		BadHighlight []string `json:"badHighlight"`
		Contrast     contrast `json:"contrast"`
		Headings     int      `json:"headings"`
		ClippedCode  []string `json:"clippedCode"`
		SourceLinks  int      `json:"sourceLinks"`
		Links        []string `json:"links"`
		IDs          []string `json:"ids"`
		Prev, Next   string
	}
	var hasMathJax bool
	var res pageResult
	err := chromedp.Run(ctx,
		network.Enable(),
		cdplog.Enable(),
		chromedp.Navigate(pageURL),
		chromedp.Evaluate(browser.MathJaxDoneJS, &hasMathJax, browser.AwaitPromise),
		chromedp.Evaluate(checkJS, &raw),
	)
	if err != nil {
		t.Fatalf("%s: %v", pageURL, err)
	}
	// Interactive views draw when their script has run: poll briefly.
	var charts struct{ Iframes, Drawn int }
	for deadline := time.Now().Add(15 * time.Second); ; {
		if err := chromedp.Run(ctx, chromedp.Evaluate(chartsJS, &charts)); err != nil {
			t.Fatal(err)
		}
		if charts.Drawn >= p.Interactive || time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if err := chromedp.Run(ctx,
		chromedp.Evaluate("window.scrollTo(0, 0)", nil),
		chromedp.CaptureScreenshot(&res.screenshot),
	); err != nil {
		t.Fatal(err)
	}
	if p.Chapter {
		tc, err := readTypeset(ctx)
		if err != nil {
			t.Fatal(err)
		}
		res.typeset = tc
		// The first figure (when there is one).
		var hasFig bool
		if err := chromedp.Run(ctx,
			chromedp.Evaluate(`(() => { const f = document.querySelector('figure.book-figure');
				if (f) f.scrollIntoView(); return !!f })()`, &hasFig),
		); err != nil {
			t.Fatal(err)
		}
		if hasFig {
			if err := chromedp.Run(ctx, chromedp.CaptureScreenshot(&res.figureShot)); err != nil {
				t.Fatal(err)
			}
		}
	}

	mu.Lock()
	for _, pr := range problems {
		t.Error(pr)
	}
	mu.Unlock()
	for _, b := range raw.BrokenImages {
		t.Errorf("image did not load: %s", b)
	}
	if p.Math {
		if !hasMathJax {
			t.Error("the page has formulas but MathJax did not run")
		}
		if raw.Formulas == 0 {
			t.Error("the page has formulas but MathJax found none")
		}
	}
	for _, f := range raw.Untypeset {
		t.Errorf("formula not typeset: %q", f)
	}
	for _, f := range raw.MathErrors {
		t.Errorf("MathJax error: %q", f)
	}
	for _, f := range raw.RawTeX {
		t.Errorf("raw TeX left in the text: %q", f)
	}
	for _, f := range raw.RawMarkdown {
		t.Errorf("raw Markdown in the visible text: %q", f)
	}
	if !p.Chapter { // (nbconvert repeats the id of repeated headings, "Solutions", on chapter pages)
		seen := map[string]bool{}
		for _, id := range raw.IDs {
			if seen[id] {
				t.Errorf("duplicate id %q", id)
			}
			seen[id] = true
		}
	}
	for _, c := range raw.ClippedCode {
		t.Errorf("code does not wrap: %q", c)
	}
	raw.Contrast.check(t, "light")
	// (The contents notebook's chapter entries are generated, not written in a part file.)
	if p.Chapter && (raw.SourceLinks == 0 || raw.SourceLinks < raw.Headings && !strings.HasPrefix(p.Path, "00-")) {
		t.Errorf("%d section headings but %d links to their sources", raw.Headings, raw.SourceLinks)
	}
	for _, f := range raw.BadHighlight {
		t.Errorf("Go code highlighted as another language: %q", f)
	}
	if charts.Drawn != p.Interactive || charts.Iframes < p.Interactive {
		t.Errorf("interactive views: %d drew a canvas (%d iframes), want %d", charts.Drawn, charts.Iframes, p.Interactive)
	}
	res.images, res.formulas, res.charts = raw.Images, raw.Formulas, charts.Drawn
	res.links, res.prev, res.next = raw.Links, raw.Prev, raw.Next
	res.ids = map[string]bool{}
	for _, id := range raw.IDs {
		res.ids[id] = true
	}
	return res
}

// linkChecker resolves links into the site: the target must be served
// (HTTP 200) and a #fragment must name an element of the target page.
type linkChecker struct {
	base  string
	pages map[string]string // URL without fragment → body ("" for non-HTML)
}

var idRE = regexp.MustCompile(`\s(?:id|name)="([^"]*)"`)

func (c *linkChecker) check(link, page string, here map[string]bool) error {
	if !strings.HasPrefix(link, c.base+"/") {
		return nil // another site, or mailto:: not the book's to resolve
	}
	target, frag, _ := strings.Cut(link, "#")
	body, ok := c.pages[target]
	if !ok {
		resp, err := http.Get(target)
		if err != nil {
			return err
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return err
		}
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("HTTP %d", resp.StatusCode)
		}
		if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
			body = string(b)
		}
		c.pages[target] = body
	}
	if frag == "" {
		return nil
	}
	// As a browser does: the fragment as written, then percent-decoded
	// (nbconvert writes heading ids percent-encoded).
	ids := []string{frag}
	if d, err := url.PathUnescape(frag); err == nil && d != frag {
		ids = append(ids, d)
	}
	found := map[string]bool{}
	for _, m := range idRE.FindAllStringSubmatch(body, -1) {
		found[html.UnescapeString(m[1])] = true
	}
	for _, id := range ids {
		if found[id] || target == page && here[id] { // here: ids made by the page's scripts too
			return nil
		}
	}
	return fmt.Errorf("no element with id %q", ids[len(ids)-1])
}
