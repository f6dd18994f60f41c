package main

import (
	"strings"
	"testing"

	"github.com/dimredbook/book/scripts/internal/nbsrc"
)

func TestFigureID(t *testing.T) {
	for fn, want := range map[string]string{
		"Fig1_10OilDistances": "1.10", "FigX4_2ComponentsFor90": "X4.2", "id:3.7": "3.7", "FigP3Spectral": "P3", "Other": "",
	} {
		if got := figureID(fn); got != want {
			t.Errorf("figureID(%q) = %q, want %q", fn, got, want)
		}
	}
}

// The contents list the chapters present and the planned ones as "in
// preparation"; navigation links neighbours and skips the contents.
func TestContentsAndNavigation(t *testing.T) {
	nbs := []nbsrc.Notebook{
		{Name: "00-contents", Cells: []nbsrc.Cell{{Type: "markdown", Source: "# C"}, {Type: "markdown", Source: "<!-- chapters\n05-spectral | Chapter 5 — Spectral\n02-b | Chapter 2 — planned\n-->"}}},
		{Name: "01-a", Cells: []nbsrc.Cell{{Type: "markdown", Source: "# Chapter 1 — A\n## 1.1 S"}, {Type: "code", Source: "%%\nm := &dimred.PCA{Q: 2}\nfigures.MustShow(figures.Fig1_1EggMass1D())"}}},
		{Name: "02-b", Cells: []nbsrc.Cell{{Type: "markdown", Source: "# Chapter 2 — B"}}},
	}
	cells := withNavigation(nbs, 0, nil)
	if len(cells) != 4 {
		t.Fatalf("contents: %d cells, want 4 (title, two chapters, one planned)", len(cells))
	}
	for _, want := range []string{"[Chapter 1 — A](01-a.ipynb)", "[1.1 S](01-a.ipynb#1.1-S)", "[1.1](../figures/README.md#figure-11)", "[`dimred.PCA`](https://pkg.go.dev/github.com/dimredbook/book/dimred#PCA)"} {
		if !strings.Contains(cells[1].Source, want) {
			t.Errorf("chapter 1 entry lacks %q:\n%s", want, cells[1].Source)
		}
	}
	if strings.Contains(cells[2].Source, "preparation") || !strings.Contains(cells[3].Source, "Chapter 5 — Spectral\n\n*In preparation.*") {
		t.Errorf("present chapter 2 or planned chapter 5 wrong:\n%s\n%s", cells[2].Source, cells[3].Source)
	}
	nav := withNavigation(nbs, 1, nil)
	top, bottom := nav[0].Source, nav[len(nav)-1].Source
	if top != bottom || strings.Contains(top, "←") || !strings.Contains(top, "[Chapter 2 — B →](02-b.ipynb)") || !strings.Contains(top, "[Contents](00-contents.ipynb)") {
		t.Errorf("navigation of chapter 1: %q", top)
	}
	if nav := withNavigation(nbs, 2, nil)[0].Source; !strings.Contains(nav, "[← Chapter 1 — A](01-a.ipynb)") || strings.Contains(nav, "→") {
		t.Errorf("navigation of chapter 2: %q", nav)
	}
}

// Lecture notebooks (L1-…) are listed under the contents' lectures marker,
// not among the chapters, and navigate among lectures only.
func TestLecturesApart(t *testing.T) {
	nbs := []nbsrc.Notebook{
		{Name: "00-contents", Cells: []nbsrc.Cell{
			{Type: "markdown", Source: "<!-- chapters\n-->"},
			{Type: "markdown", Source: "## Lectures"},
			{Type: "markdown", Source: "<!-- lectures\nL3-talk | Lecture 3 — planned\n-->"}}},
		{Name: "01-a", Cells: []nbsrc.Cell{{Type: "markdown", Source: "# Chapter 1 — A"}}},
		{Name: "L1-b", Cells: []nbsrc.Cell{{Type: "markdown", Source: "# Lecture 1 — B"}}},
		{Name: "L2-c", Cells: []nbsrc.Cell{{Type: "markdown", Source: "# Lecture 2 — C"}}},
	}
	cells := withNavigation(nbs, 0, nil)
	var got []string
	for _, c := range cells {
		got = append(got, strings.SplitN(c.Source, "\n", 2)[0])
	}
	want := []string{"### [Chapter 1 — A](01-a.ipynb)", "## Lectures", "### [Lecture 1 — B](L1-b.ipynb)", "### [Lecture 2 — C](L2-c.ipynb)", "### Lecture 3 — planned"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("contents headings %q, want %q", got, want)
	}
	if nav := withNavigation(nbs, 1, nil)[0].Source; strings.Contains(nav, "→") {
		t.Errorf("chapter 1 links on to a lecture: %q", nav)
	}
	if nav := withNavigation(nbs, 2, nil)[0].Source; strings.Contains(nav, "←") || !strings.Contains(nav, "[Lecture 2 — C →](L2-c.ipynb)") {
		t.Errorf("navigation of lecture 1: %q", nav)
	}
}
