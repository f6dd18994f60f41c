package main

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/dimredbook/book/scripts/internal/browser"
)

// The whole book as one PDF. scripts/book writes book-print.html — a title
// page, the contents, and an empty section per chapter — and headless
// Chromium fills it with the chapters as typeset in their own pages
// (MathJax's CommonHTML output is HTML and CSS, with its styles) and prints
// it (chromedp's print-to-PDF): text stays text, the SVG figures stay
// vectors, each page has its number in the footer. Typesetting chapter by
// chapter is much faster than 2000 formulas in one page, and the browser
// test, which typesets every chapter anyway, prints the book from its pages.

// printPage is the file name of the book's print page.
const printPage = "book-print.html"

var (
	headEndRE   = regexp.MustCompile(`(?s)^(.*?)<body[^>]*>`)
	titleTagRE  = regexp.MustCompile(`(?s)<title>.*?</title>`)
	mathjaxSrRE = regexp.MustCompile(`(?s)<!-- Load mathjax -->.*?<!-- End of mathjax configuration -->`)
)

// writePrintPage writes book-print.html. Its head is the first chapter's
// (nbconvert's styles and the book's), without MathJax: the chapters come
// typeset.
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
	head = mathjaxSrRE.ReplaceAllString(head, "")
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
		fmt.Fprintf(&b, "<section class=\"book-print-chapter\" id=\"book-%s\" data-page=\"%s\"></section>\n", nb.Name, nb.Page())
	}
	b.WriteString("</body>\n</html>\n")
	return os.WriteFile(filepath.Join(out, printPage), []byte(b.String()), 0o644)
}

// typesetChapter is a chapter page as the browser shows it after MathJax:
// its main content and MathJax's styles.
type typesetChapter struct {
	Main   string `json:"main"`
	Styles string `json:"styles"`
}

// typesetJS reads a typeset chapter page.
const typesetJS = `(() => ({
  main: (document.querySelector('main.book-chapter') || document.body).innerHTML,
  styles: Array.from(document.querySelectorAll('head style')).filter(s => /mjx-|MJX|MathJax/.test(s.textContent))
    .map(s => s.outerHTML).join('\n'),
}))()`

// readTypeset returns the typeset chapter in the tab ctx (MathJax done).
func readTypeset(ctx context.Context) (typesetChapter, error) {
	var tc typesetChapter
	err := chromedp.Run(ctx, chromedp.Evaluate(typesetJS, &tc))
	return tc, err
}

// fillJS puts the typeset chapters into the print page's sections and
// MathJax's styles (once each) into its head; it resolves when fonts and
// images have loaded.
const fillJS = `((chapters) => {
  const seen = new Set();
  for (const sec of document.querySelectorAll('section.book-print-chapter')) {
    const c = chapters[sec.dataset.page];
    if (!c) throw new Error('no typeset chapter for ' + sec.dataset.page);
    sec.innerHTML = c.main;
    if (!seen.has(c.styles)) { seen.add(c.styles); document.head.insertAdjacentHTML('beforeend', c.styles); }
  }
  // The notebooks' own navigation lines and links between chapter pages point at the site.
  return Promise.all(Array.from(document.images).map(i => i.complete ? 0 : new Promise(r => { i.onload = i.onerror = r; })))
    .then(() => document.fonts.ready)
    // MathJax's hidden MathML copy of each formula must stay hidden (it printed every formula twice).
    .then(() => Array.from(document.querySelectorAll('.MJX_Assistive_MathML')).filter(e => getComputedStyle(e).display !== 'none').length);
})`

// paper is the PDF's page: A4 (width, height) and margins (top, bottom,
// left, right), in inches.
var paper = [6]float64{8.27, 11.69, 0.6, 0.7, 0.6, 0.6}

// printFooter is each PDF page's footer: its number of the total.
const printFooter = `<div style="font-family: 'DejaVu Sans', sans-serif; font-size: 8px; width: 100%; text-align: center; color: #555;">` +
	`<span class="pageNumber"></span> / <span class="totalPages"></span></div>`

// printBook opens base/book-print.html in a new tab of bctx, fills it with
// the typeset chapters (page name → chapter) and prints it times times
// (the test prints twice to see the page count stable): A4, backgrounds
// printed, page numbers in the footer.
func printBook(bctx context.Context, base string, chapters map[string]typesetChapter, times int) ([][]byte, error) {
	ctx, cancel := chromedp.NewContext(bctx)
	defer cancel()
	ctx, tcancel := context.WithTimeout(ctx, 5*time.Minute)
	defer tcancel()
	js, err := json.Marshal(chapters)
	if err != nil {
		return nil, err
	}
	var shownMathML int
	if err := chromedp.Run(ctx,
		chromedp.Navigate(base+"/"+printPage),
		chromedp.Evaluate(fillJS+"("+string(js)+")", &shownMathML, browser.AwaitPromise),
	); err != nil {
		return nil, fmt.Errorf("%s: %w", printPage, err)
	}
	if shownMathML > 0 {
		return nil, fmt.Errorf("%s: %d formulas would print twice (MathJax's assistive MathML shown)", printPage, shownMathML)
	}
	var pdfs [][]byte
	for i := 0; i < times; i++ {
		var pdf []byte
		if err := chromedp.Run(ctx, chromedp.ActionFunc(func(ctx context.Context) error {
			var err error
			pdf, _, err = page.PrintToPDF().
				WithPrintBackground(true).
				WithPaperWidth(paper[0]).WithPaperHeight(paper[1]).
				WithMarginTop(paper[2]).WithMarginBottom(paper[3]).WithMarginLeft(paper[4]).WithMarginRight(paper[5]).
				WithDisplayHeaderFooter(true).
				WithHeaderTemplate(`<div></div>`).
				WithFooterTemplate(printFooter).
				Do(ctx)
			return err
		})); err != nil {
			return nil, fmt.Errorf("printing %s: %w", printPage, err)
		}
		pdfs = append(pdfs, pdf)
	}
	return pdfs, nil
}

// printPDF starts a headless Chromium, typesets every chapter of the site
// in out (served over HTTP, as a reader's server would), prints the book
// and writes out/book.pdf.
func printPDF(out string, nbs []*notebook) error {
	chrome := browser.Find()
	if chrome == "" {
		return fmt.Errorf("chromium is missing: scripts/setup installs it (Debian package chromium)")
	}
	tmp, err := os.MkdirTemp("", "book-chromium-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	srv := httptest.NewServer(http.FileServer(http.Dir(out)))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	bctx, stop, err := browser.Start(ctx, browser.Options(chrome, tmp, 1280, 900))
	if err != nil {
		return fmt.Errorf("%s: %w", chrome, err)
	}
	defer stop()
	chapters := map[string]typesetChapter{}
	for _, nb := range nbs {
		tctx, tcancel := chromedp.NewContext(bctx)
		var tc typesetChapter
		err := chromedp.Run(tctx, chromedp.Navigate(srv.URL+"/"+nb.Page()),
			chromedp.Evaluate(browser.MathJaxDoneJS, nil, browser.AwaitPromise),
			chromedp.ActionFunc(func(ctx context.Context) error {
				var err error
				tc, err = readTypeset(ctx)
				return err
			}))
		tcancel()
		if err != nil {
			return fmt.Errorf("typesetting %s: %w", nb.Page(), err)
		}
		chapters[nb.Page()] = tc
	}
	pdfs, err := printBook(bctx, srv.URL, chapters, 1)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(out, "book.pdf"), pdfs[0], 0o644)
}
