package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// A cell's time is execute_input to execute_reply; a cell over the silent
// threshold without a figures.Progress line is flagged, one with it is not
// (unless it is over the cell budget too).
func TestSlowCells(t *testing.T) {
	nbJSON := `{"cells": [
 {"cell_type": "markdown", "source": "# x", "metadata": {}},
 {"cell_type": "code", "source": "%%\nfigures.MustShow(figures.FigP7SpectralScores())", "outputs": [
   {"output_type": "display_data", "data": {"text/html": "<p><b>Fig P7</b> done: 14 steps</p>"}}],
  "metadata": {"execution": {"iopub.execute_input": "2026-11-25T23:54:09.000000Z", "shell.execute_reply": "2026-11-25T23:54:31.000000Z"}}},
 {"cell_type": "code", "source": "%%\nslow()", "outputs": [],
  "metadata": {"execution": {"iopub.execute_input": "2026-11-25T23:54:31.000000Z", "shell.execute_reply": "2026-11-25T23:54:43.500000Z"}}},
 {"cell_type": "code", "source": "%%\nfast()", "outputs": [],
  "metadata": {"execution": {"iopub.execute_input": "2026-11-25T23:54:43.500000Z", "shell.execute_reply": "2026-11-25T23:54:45.000000Z"}}},
 {"cell_type": "code", "source": "untimed()", "outputs": [], "metadata": {}},
 {"cell_type": "code", "source": "%%\nlong()", "outputs": [
   {"output_type": "display_data", "data": {"text/html": ["<p><b>fit</b> done: iteration 3, objective 1</p>"]}}],
  "metadata": {"execution": {"iopub.execute_input": "2026-11-25T23:55:00Z", "shell.execute_reply": "2026-11-25T23:56:00Z"}}}
]}`
	var nb struct {
		Cells []cell `json:"cells"`
	}
	if err := json.Unmarshal([]byte(nbJSON), &nb); err != nil {
		t.Fatal(err)
	}
	times := cellTimes(nb.Cells)
	want := []cellTime{{1, 22, true, "figures.MustShow(figures.FigP7SpectralScores())"}, {2, 12.5, false, "slow()"}, {3, 1.5, false, "fast()"}, {5, 60, true, "long()"}}
	if len(times) != len(want) {
		t.Fatalf("times %+v, want %+v", times, want)
	}
	for i := range want {
		if times[i] != want[i] {
			t.Errorf("cell %d: %+v, want %+v", i, times[i], want[i])
		}
	}
	w := slowCells("nb", times, 10*time.Second, 30*time.Second)
	if len(w) != 2 || !strings.Contains(w[0], "code cell 2 (slow()): 12 s, over 10s with no progress display") ||
		!strings.Contains(w[1], "code cell 5 (long()): 60 s, over the 30s cell budget") || strings.Contains(w[1], "no progress") {
		t.Errorf("warnings %q", w)
	}
}

// Typed durations in prose are found; numbers with other units are not.
func TestTypedTimes(t *testing.T) {
	for src, want := range map[string]int{
		"This cell runs all the fits, about a minute:":                  1,
		"Three fits (a few seconds each):":                              1,
		"(The 400-sample fit takes about half a minute; the report)":    1,
		"at about 20 CPU seconds.":                                      1,
		"about 950 and 1200 constraints":                                0,
		"$n=300$ points, under 5 errors; 30 s is not typed here":        0,
		"The fit costs about four times as much as the 100-sample one.": 0,
	} {
		if got := typedTimes(src); len(got) != want {
			t.Errorf("%q: %q, want %d", src, got, want)
		}
	}
}
