// Package livewidgets holds the browser test of notebook 09's live widgets
// (figures.Explorer): livewidgets_test.go starts `jupyter notebook` with
// the GoNB kernel, opens a copy of notebooks/09-explore.ipynb in headless
// Chromium (chromedp), runs each widget cell, moves its sliders and checks
// that the figure is redrawn, then presses Done and checks the cell ends
// with the last figure as a static output.
//
// It runs only when asked (DIMRED_BROWSER_TEST=1, as scripts/test sets):
//
//	DIMRED_BROWSER_TEST=1 DIMRED_DATA=/path/to/mirror go test -count=1 -v ./scripts/livewidgets
//
// Without Chromium, Jupyter or GoNB it skips, except under CI=true, where it
// fails.
package livewidgets
