package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/dimredbook/book/scripts/internal/browser"
)

// The checks of the site's search, dark scheme, embedded figure font and
// PDF, called by TestBook (book_test.go) on the built site.

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// contrastJS measures the WCAG contrast ratio of the body text (the first
// paragraph of the main text), of code and of typeset maths against the
// background they are drawn on (the nearest opaque background).
const contrastJS = `(() => {
  const rgb = c => (c.match(/[\d.]+/g) || []).map(Number);
  const lum = c => { const [r, g, b] = rgb(c).slice(0, 3).map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const bgOf = e => { for (; e; e = e.parentElement) { const c = getComputedStyle(e).backgroundColor; const v = rgb(c); if (v.length === 3 || (v.length === 4 && v[3] > 0.5)) return c; } return 'rgb(255, 255, 255)'; };
  const ratio = e => { if (!e) return 0; const a = lum(getComputedStyle(e).color), b = lum(bgOf(e)); return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05); };
  const p = document.querySelector('.jp-RenderedMarkdown p, main p');
  return {
    text: ratio(p), code: ratio(document.querySelector('.highlight pre')),
    math: ratio(document.querySelector('.jp-RenderedMarkdown .mjx-chtml')),
    background: p ? lum(bgOf(p)) : -1, sample: p ? p.textContent.slice(0, 40) : '',
  };
})()`

// contrast is what contrastJS returns; 0 where the page has no such element.
type contrast struct {
	Text, Code, Math float64
	Background       float64 // relative luminance of the text's background
	Sample           string
}

// minContrast is WCAG 2's AA level for body text.
const minContrast = 4.5

func (c contrast) check(t *testing.T, scheme string) {
	t.Helper()
	if c.Text == 0 {
		t.Errorf("%s: no paragraph of text to measure", scheme)
	}
	for _, x := range []struct {
		what string
		v    float64
	}{{"body text", c.Text}, {"code", c.Code}, {"maths", c.Math}} {
		if x.v != 0 && x.v < minContrast {
			t.Errorf("%s scheme: %s contrast %.2f < %.1f (text %q)", scheme, x.what, x.v, minContrast, c.Sample)
		}
	}
}

// testSVGFont opens a figure's SVG as the site serves it: its text must be
// drawn in the font the SVG carries, loaded from inside the file, so that
// it looks the same on a system without Liberation Serif.
func testSVGFont(t *testing.T, bctx context.Context, base, dir string) {
	svgs, _ := filepath.Glob(filepath.Join(dir, "figures", "*", "*.svg"))
	if len(svgs) == 0 {
		t.Fatal("no SVG figures in the site")
	}
	rel, _ := filepath.Rel(dir, svgs[0])
	ctx, cancel := chromedp.NewContext(bctx)
	defer cancel()
	var res struct {
		Faces  []string `json:"faces"`
		Family string   `json:"family"`
		Check  bool     `json:"check"`
	}
	if err := chromedp.Run(ctx, chromedp.Navigate(base+"/"+filepath.ToSlash(rel)),
		chromedp.Evaluate(`document.fonts.ready.then(() => ({
			faces: Array.from(document.fonts).map(f => f.family.replace(/["']/g, '') + ':' + f.status),
			family: getComputedStyle(document.querySelector('text')).fontFamily,
			check: document.fonts.check("12px '`+svgFontFamily+`'")}))`, &res, browser.AwaitPromise)); err != nil {
		t.Fatal(err)
	}
	if !contains(res.Faces, svgFontFamily+":loaded") || !res.Check {
		t.Errorf("%s: embedded font not loaded: faces %v", rel, res.Faces)
	}
	if !strings.HasPrefix(strings.Trim(res.Family, `"'`), svgFontFamily) || !strings.HasSuffix(res.Family, "serif") {
		t.Errorf("%s: text font-family %q, want %s first and a generic serif last", rel, res.Family, svgFontFamily)
	}
	t.Logf("%s: font faces %v", rel, res.Faces)
}

// testSearch searches the book from its search page and checks the
// results: "maximum entropy" finds chapter 5's maximum entropy unfolding
// (§5.3) and the MEU method; "magnification" finds §6.5.5.
func testSearch(t *testing.T, bctx context.Context, base string) {
	type result struct{ URL, Title string }
	search := func(q string) []result {
		ctx, cancel := chromedp.NewContext(bctx)
		defer cancel()
		ctx, tcancel := context.WithTimeout(ctx, time.Minute)
		defer tcancel()
		var rs []result
		err := chromedp.Run(ctx, chromedp.Navigate(base+"/search.html?q="+url.QueryEscape(q)),
			chromedp.WaitVisible(`#book-results li`, chromedp.ByQuery),
			chromedp.Evaluate(`Array.from(document.querySelectorAll('#book-results a.book-result')).map(a => ({url: a.href, title: a.textContent}))`, &rs))
		if err != nil {
			t.Fatalf("search %q: %v", q, err)
		}
		t.Logf("search %q: %d results, first %v", q, len(rs), rs[:min(3, len(rs))])
		return rs
	}
	find := func(rs []result, top int, page string, title *regexp.Regexp) bool {
		for i, r := range rs {
			if i >= top {
				break
			}
			if strings.HasPrefix(r.URL, base+"/"+page) && (title == nil || title.MatchString(r.Title)) {
				return true
			}
		}
		return false
	}
	rs := search("maximum entropy")
	if !find(rs, 10, "05-spectral.html#", regexp.MustCompile(`(?i)maximum entropy unfolding|^5\.3\b`)) {
		t.Errorf(`"maximum entropy": chapter 5's maximum entropy unfolding (§5.3) not among the first 10 results`)
	}
	if !find(rs, 50, "methods.html#pkg-dimred.MEU", nil) {
		t.Errorf(`"maximum entropy": the MEU method (methods.html#pkg-dimred.MEU) not found`)
	}
	rs = search("magnification")
	if !find(rs, 10, "06-nonlinear-probabilistic.html#", regexp.MustCompile(`^6\.5\.5\b`)) {
		t.Errorf(`"magnification": §6.5.5 not among the first 10 results`)
	}
}

// testDark opens the index, a chapter and the report in the dark scheme
// (prefers-color-scheme: dark), checks that it is dark and legible, and
// saves screenshots NAME-dark.png; then the toggle on a light page.
func testDark(t *testing.T, bctx context.Context, base string, man manifest, shots string) {
	var chapter string
	for _, p := range man.Pages {
		if p.Chapter && p.Math && len(p.Anchors) > 0 && (chapter == "" || strings.HasPrefix(p.Path, "07")) {
			chapter = p.Path
		}
	}
	for _, page := range []string{"index.html", chapter, "report.html"} {
		ctx, cancel := chromedp.NewContext(bctx)
		var c contrast
		var shot []byte
		err := chromedp.Run(ctx,
			emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}),
			chromedp.Navigate(base+"/"+page),
			chromedp.Evaluate(browser.MathJaxDoneJS, nil, browser.AwaitPromise),
			chromedp.Evaluate(contrastJS, &c),
			chromedp.CaptureScreenshot(&shot),
		)
		if err == nil && page == chapter {
			// and a screen with a figure, on its white panel
			var fig []byte
			err = chromedp.Run(ctx, chromedp.Evaluate(`(() => { const f = document.querySelector('figure.book-figure'); if (f) f.scrollIntoView(); })()`, nil),
				chromedp.CaptureScreenshot(&fig))
			if err == nil {
				err = os.WriteFile(filepath.Join(shots, strings.TrimSuffix(page, ".html")+"-figure-dark.png"), fig, 0o644)
			}
		}
		cancel()
		if err != nil {
			t.Fatalf("%s (dark): %v", page, err)
		}
		if err := os.WriteFile(filepath.Join(shots, strings.TrimSuffix(page, ".html")+"-dark.png"), shot, 0o644); err != nil {
			t.Error(err)
		}
		if c.Background > 0.05 {
			t.Errorf("%s: the dark scheme's background has luminance %.2f, not dark", page, c.Background)
		}
		c.check(t, "dark "+page)
		t.Logf("%s dark: contrast text %.1f, code %.1f, maths %.1f", page, c.Text, c.Code, c.Math)
	}

	// The toggle: on a light page it turns the page dark, and back.
	ctx, cancel := chromedp.NewContext(bctx)
	defer cancel()
	var before, after, back contrast
	err := chromedp.Run(ctx,
		chromedp.Navigate(base+"/"+chapter),
		chromedp.Evaluate(contrastJS, &before),
		chromedp.Click(`button.book-theme-toggle`, chromedp.ByQuery),
		chromedp.Evaluate(contrastJS, &after),
		chromedp.Click(`button.book-theme-toggle`, chromedp.ByQuery),
		chromedp.Evaluate(contrastJS, &back),
		chromedp.Evaluate(`localStorage.removeItem('book-theme')`, nil),
	)
	if err != nil {
		t.Fatal(err)
	}
	if before.Background < 0.9 || after.Background > 0.05 || back.Background < 0.9 {
		t.Errorf("theme toggle: background luminance %.2f → %.2f → %.2f, want light → dark → light",
			before.Background, after.Background, back.Background)
	}
	after.check(t, "toggled dark")

	// Click to enlarge: a figure opens at the window's width; a click closes it.
	var zoom struct{ Open, Wide, Closed bool }
	if err := chromedp.Run(ctx, chromedp.Evaluate(`(() => {
		const a = document.querySelector('figure.book-figure > a');
		if (!a) return {};
		a.click();
		const z = document.querySelector('.book-zoom img');
		const r = {open: !!z, wide: !!z && z.getBoundingClientRect().width > 0.9 * innerWidth};
		if (z) z.parentElement.click();
		r.closed = !document.querySelector('.book-zoom');
		return r;
	})()`, &zoom)); err != nil {
		t.Fatal(err)
	}
	if !zoom.Open || !zoom.Wide || !zoom.Closed {
		t.Errorf("click to enlarge on %s: opened %v, at window width %v, closed again %v", chapter, zoom.Open, zoom.Wide, zoom.Closed)
	}
}

// printForTest prints the book from the chapters the test typeset and
// writes the site's book.pdf. In CI (CI=true), where a fresh clone has no
// page count recorded by an earlier run (checkStablePages), it prints the
// book twice and the two must have the same number of pages.
func printForTest(t *testing.T, bctx context.Context, base, dir string, typeset map[string]typesetChapter) {
	start := time.Now()
	copies := 1
	if os.Getenv("CI") == "true" {
		copies = 2
	}
	pdfs, err := printBook(bctx, base, typeset, copies)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "book.pdf"), pdfs[0], 0o644); err != nil {
		t.Fatal(err)
	}
	if copies == 2 {
		second := filepath.Join(t.TempDir(), "book-2.pdf")
		if err := os.WriteFile(second, pdfs[1], 0o644); err != nil {
			t.Fatal(err)
		}
		if a, b := pdfPages(t, filepath.Join(dir, "book.pdf")), pdfPages(t, second); a != b {
			t.Errorf("page count not stable: two prints of the same pages in one run gave %d and %d pages", a, b)
		} else {
			t.Logf("two prints in one run: %d pages each", a)
		}
	}
	t.Logf("book.pdf: %d kB, printed in %.1f s", len(pdfs[0])/1024, time.Since(start).Seconds())
}

// checkStablePages compares the PDF's page count with the count an
// earlier run recorded for the same printed pages, and records it.
func checkStablePages(t *testing.T, dir string, man manifest, pages int) {
	t.Helper()
	// The fingerprint: what is printed (the chapters, the print page, the
	// styles) and how (the scripts that fill the page, the paper, the footer).
	h := sha256.New()
	fmt.Fprint(h, typesetJS, fillJS, printFooter, paper)
	files := []string{printPage, "assets/book.css"}
	for _, p := range man.Pages {
		if p.Chapter {
			files = append(files, p.Path)
		}
	}
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		h.Write(b)
	}
	key := hex.EncodeToString(h.Sum(nil))[:16]
	store := filepath.Join("..", "..", ".cache", "book-pdf-pages.json")
	seen := map[string]int{}
	if b, err := os.ReadFile(store); err == nil {
		_ = json.Unmarshal(b, &seen)
	}
	if n, ok := seen[key]; ok {
		if n != pages {
			t.Errorf("page count not stable: %d pages, %d in an earlier run on the same pages (%s)", pages, n, key)
		} else {
			t.Logf("page count %d, as in an earlier run on the same pages", pages)
		}
	} else {
		t.Logf("page count %d recorded for these pages (%s); the next run compares", pages, key)
	}
	seen[key] = pages
	if b, err := json.Marshal(seen); err == nil {
		_ = os.MkdirAll(filepath.Dir(store), 0o755)
		_ = os.WriteFile(store, b, 0o644)
	}
}

// testPDF reads book.pdf with poppler's pdftotext and pdfinfo: the title
// page and contents come first, every chapter's title and every figure
// caption number of the chapters is in its text, page numbers are in the
// footers, and the page count is the same as an earlier run's on the same
// pages. It saves the first pages as
// pdf-page-N.png (pdftoppm).
func testPDF(t *testing.T, dir string, man manifest, shots string) {
	pdf := filepath.Join(dir, "book.pdf")
	if man.PDF == "" {
		t.Fatal("the site was built without its PDF (booksite -pdf or -pdf-test; scripts/book --test does it)")
	}
	for _, tool := range []string{"pdftotext", "pdfinfo", "pdftoppm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is missing: scripts/setup installs poppler-utils", tool)
		}
	}
	out, err := exec.Command("pdftotext", "-enc", "UTF-8", pdf, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	text := spaceRE.ReplaceAllString(string(out), " ")
	if !strings.HasPrefix(strings.TrimSpace(text), "Dimensionality Reduction for Machine Learning") {
		t.Errorf("the PDF does not open with its title page: %q", text[:min(120, len(text))])
	}
	ci := strings.Index(text, "Contents")
	for _, p := range man.Pages {
		if !p.Chapter {
			continue
		}
		title := spaceRE.ReplaceAllString(p.Title, " ")
		if n := strings.Count(text, title); n < 2 { // in the contents and at the chapter's head
			t.Errorf("chapter title %q appears %d times in the PDF's text, want the contents and the chapter", title, n)
		}
		if i := strings.Index(text, title); i < ci {
			t.Errorf("chapter title %q before the contents", title)
		}
		for _, id := range p.Figures {
			if !strings.Contains(text, "Figure "+id+".") {
				t.Errorf("the PDF's text lacks the caption of Figure %s (%s)", id, p.Path)
			}
		}
	}
	pages := pdfPages(t, pdf)
	if pages < 50 {
		t.Errorf("the PDF has %d pages: too few for the book", pages)
	}
	// Page numbers in the footers: the last page's number and the total.
	if !strings.Contains(text, fmt.Sprintf("%d / %d", pages, pages)) {
		t.Errorf("no page number %d / %d in the PDF's text", pages, pages)
	}
	// Figures as vectors: the SVG figures' text is text in the PDF.
	if !strings.Contains(string(out), "MEU") {
		t.Errorf("no figure label text in the PDF: figures not vectors?")
	}
	// The first pages, for review.
	if err := exec.Command("pdftoppm", "-png", "-r", "50", "-f", "1", "-l", "4", pdf, filepath.Join(shots, "pdf-page")).Run(); err != nil {
		t.Errorf("pdftoppm: %v", err)
	}
	// Stable run to run: the same site prints to the same number of pages.
	// The count is kept per fingerprint of the printed pages (the chapters'
	// HTML and the print page) in .cache/book-pdf-pages.json; a second run
	// on the same site must find the same count. (Printing twice in one run
	// would double the test's longest step.)
	checkStablePages(t, dir, man, pages)
	t.Logf("book.pdf: %d pages", pages)
}

var pagesRE = regexp.MustCompile(`(?m)^Pages:\s+(\d+)`)

func pdfPages(t *testing.T, pdf string) int {
	t.Helper()
	out, err := exec.Command("pdfinfo", pdf).Output()
	if err != nil {
		t.Fatalf("pdfinfo %s: %v", pdf, err)
	}
	m := pagesRE.FindSubmatch(bytes.TrimSpace(out))
	if m == nil {
		t.Fatalf("pdfinfo %s: no page count", pdf)
	}
	n, _ := strconv.Atoi(string(m[1]))
	return n
}
