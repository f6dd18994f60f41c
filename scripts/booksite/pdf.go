package main

import (
	"context"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// The whole book as one PDF. scripts/book joins the chapter pages into one
// page, book-print.html — a title page, the contents, then every chapter in
// order — and headless Chromium prints it (chromedp's print-to-PDF) once
// MathJax has typeset it: text stays text, the SVG figures stay vectors,
// each page has its number in the footer.

type runtimeEvaluate = runtime.EvaluateParams

// Timings are the stages of the last PrintBook, for the log.
var Timings []string

// printPage is the file name of the joined page.
const printPage = "book-print.html"

var (
	mainRE      = regexp.MustCompile(`(?s)<main class="book-chapter">(.*)</main>`)
	headEndRE   = regexp.MustCompile(`(?s)^(.*?)<body[^>]*>`)
	titleTagRE  = regexp.MustCompile(`(?s)<title>.*?</title>`)
	mathjaxCfRE = regexp.MustCompile(`(?s)CommonHTML: \{\s*linebreaks: \{\s*automatic: true\s*\}\s*\}`)
)

// writePrintPage writes book-print.html from the chapter pages already in
// out. The head (nbconvert's styles, MathJax and its configuration) is the
// first chapter's; MathJax's automatic line breaking and its assistive
// MathML, which double the typesetting time of 2000 formulas and add
// nothing on paper, are off.
func writePrintPage(out string, nbs []*notebook, built string) error {
	if len(nbs) == 0 {
		return fmt.Errorf("no chapters to print")
	}
	first, err := os.ReadFile(filepath.Join(out, nbs[0].Page()))
	if err != nil {
		return err
	}
	m := headEndRE.FindSubmatch(first)
	if m == nil {
		return fmt.Errorf("%s: no <body>", nbs[0].Page())
	}
	head := string(m[1])
	head = titleTagRE.ReplaceAllString(head, "<title>Dimensionality Reduction for Machine Learning — the executable companion</title>")
	head = mathjaxCfRE.ReplaceAllString(head, `CommonHTML: { linebreaks: { automatic: false } }, menuSettings: { assistiveMML: false }, "fast-preview": { disabled: true }`)
	var b strings.Builder
	b.WriteString(head)
	b.WriteString(`<body class="jp-Notebook book-print" data-jp-theme-light="true">` + "\n")
	b.WriteString(`<section class="book-title-page">
<h1 class="book-print-title">Dimensionality Reduction for Machine Learning</h1>
<p class="book-print-subtitle">An executable companion to Neil D. Lawrence's draft book, in Go:
every chapter a notebook, executed, with the book's figures reproduced and its numbers set beside ours.</p>
<p class="book-print-date">` + html.EscapeString(built) + `</p>
</section>
<section class="book-print-contents">
<h1 class="book-print-heading">Contents</h1>
<ol class="book-print-toc">
`)
	for _, nb := range nbs {
		fmt.Fprintf(&b, "<li><a href=\"#book-%s\">%s</a></li>\n", nb.Name, html.EscapeString(nb.Title))
	}
	b.WriteString("</ol>\n</section>\n")
	for _, nb := range nbs {
		p, err := os.ReadFile(filepath.Join(out, nb.Page()))
		if err != nil {
			return err
		}
		mm := mainRE.FindSubmatch(p)
		if mm == nil {
			return fmt.Errorf("%s: no <main class=\"book-chapter\">", nb.Page())
		}
		fmt.Fprintf(&b, "<section class=\"book-print-chapter\" id=\"book-%s\">\n%s\n</section>\n", nb.Name, mm[1])
	}
	b.WriteString("</body>\n</html>\n")
	return os.WriteFile(filepath.Join(out, printPage), []byte(b.String()), 0o644)
}

// chromium finds the browser: $CHROMIUM, else the first on PATH.
func chromium() string {
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

// browserOptions are the headless Chromium's flags, for the PDF and the test.
func browserOptions(chrome, userDir string) []chromedp.ExecAllocatorOption {
	return []chromedp.ExecAllocatorOption{
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
		chromedp.WindowSize(1280, 900),
	}
}

// mathJaxDoneJS resolves once MathJax has started and emptied its queue
// (typesetting), or at once on a page without MathJax.
const mathJaxDoneJS = `new Promise(resolve => {
  if (!window.MathJax || !MathJax.Hub) { resolve(false); return; }
  const wait = () => { if (MathJax.isReady) MathJax.Hub.Queue(() => resolve(true)); else setTimeout(wait, 50); };
  wait();
})`

// printFooter is each PDF page's footer: its number of the total.
const printFooter = `<div style="font-family: 'DejaVu Sans', sans-serif; font-size: 8px; width: 100%; text-align: center; color: #555;">` +
	`<span class="pageNumber"></span> / <span class="totalPages"></span></div>`

// PrintBook loads the site's print page in a browser (served over HTTP
// from dir, as a reader's server would), waits for MathJax and the images,
// and returns the PDF: A4, backgrounds printed, page numbers in the footer.
func PrintBook(bctx context.Context, dir string) ([]byte, error) {
	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	defer srv.Close()
	tctx, cancel := chromedp.NewContext(bctx)
	defer cancel()
	tctx, tcancel := context.WithTimeout(tctx, 8*time.Minute)
	defer tcancel()
	var typeset bool
	var pdf []byte
	start := time.Now()
	err := chromedp.Run(tctx,
		chromedp.Navigate(srv.URL+"/"+printPage),
		chromedp.ActionFunc(func(context.Context) error {
			Timings = append(Timings, fmt.Sprintf("loaded %.1f s", time.Since(start).Seconds()))
			return nil
		}),
		chromedp.Evaluate(mathJaxDoneJS, &typeset, func(p *runtimeEvaluate) *runtimeEvaluate { return p.WithAwaitPromise(true) }),
		chromedp.ActionFunc(func(context.Context) error {
			Timings = append(Timings, fmt.Sprintf("typeset %.1f s", time.Since(start).Seconds()))
			return nil
		}),
		chromedp.Evaluate(`Promise.all(Array.from(document.images).map(i => i.complete ? 0 : new Promise(r => { i.onload = i.onerror = r; })))`, nil,
			func(p *runtimeEvaluate) *runtimeEvaluate { return p.WithAwaitPromise(true) }),
		chromedp.ActionFunc(func(ctx context.Context) error {
			var err error
			pdf, _, err = page.PrintToPDF().
				WithPrintBackground(true).
				WithPaperWidth(8.27).WithPaperHeight(11.69). // A4, inches
				WithMarginTop(0.6).WithMarginBottom(0.7).WithMarginLeft(0.6).WithMarginRight(0.6).
				WithDisplayHeaderFooter(true).
				WithHeaderTemplate(`<div></div>`).
				WithFooterTemplate(printFooter).
				Do(ctx)
			return err
		}),
	)
	Timings = append(Timings, fmt.Sprintf("printed %.1f s", time.Since(start).Seconds()))
	if err != nil {
		return nil, fmt.Errorf("printing %s: %w", printPage, err)
	}
	if !typeset {
		return nil, fmt.Errorf("printing %s: MathJax did not run", printPage)
	}
	return pdf, nil
}

// printPDF starts a headless Chromium, prints the book and writes
// out/book.pdf.
func printPDF(out string) error {
	pdf, err := printPDFBytes(out)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(out, "book.pdf"), pdf, 0o644)
}

// printPDFBytes starts a headless Chromium and prints the site in out.
func printPDFBytes(out string) ([]byte, error) {
	chrome := chromium()
	if chrome == "" {
		return nil, fmt.Errorf("chromium is missing: scripts/setup installs it (Debian package chromium)")
	}
	tmp, err := os.MkdirTemp("", "book-chromium-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	actx, acancel := chromedp.NewExecAllocator(ctx, browserOptions(chrome, tmp)...)
	defer acancel()
	bctx, bcancel := chromedp.NewContext(actx)
	defer bcancel()
	return PrintBook(bctx, out)
}
