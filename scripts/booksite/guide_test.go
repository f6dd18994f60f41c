package main

import (
	"strings"
	"testing"

	"github.com/dimredbook/book/scripts/internal/nbsrc"
)

func nbsrcParse(s string) ([]nbsrc.Cell, error) { return nbsrc.Parse(s, "part.nb") }

// The index shows the contents notebook's course-guide table, its links
// pointing at the site's pages.
func TestCourseGuide(t *testing.T) {
	nb := &notebook{JSON: map[string]any{"cells": []any{
		map[string]any{"cell_type": "markdown", "source": "## Course guide"},
		map[string]any{"cell_type": "markdown", "source": "| Session | Topic | Notebooks |\n|---|---|---|\n" +
			"| 1 | High *dimensions* | [01-a](01-a.ipynb) (≈ 2 min); [solutions](solutions/01-a-solutions.ipynb#Solution-2)<br>`L1-x` (not in this copy) |\n\n*Run times* …"},
	}}}
	got := string(courseGuide(nb))
	for _, want := range []string{"<th>Session</th>", `<a href="01-a.html">01-a</a> (≈ 2 min)`,
		`<a href="01-a-solutions.html#Solution-2">solutions</a>`, "<br><code>L1-x</code>", "High <em>dimensions</em>"} {
		if !strings.Contains(got, want) {
			t.Errorf("guide lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "---") || strings.Contains(got, "Run times") {
		t.Errorf("guide has the separator or the text after the table:\n%s", got)
	}
	if courseGuide(nil) != "" || courseGuide(&notebook{JSON: map[string]any{}}) != "" {
		t.Error("a guide without a contents notebook")
	}
}

// An exercise list's heading links to its part file although nbbuild added
// links to the solutions that the part file does not have.
func TestLinkSourcesOfExercises(t *testing.T) {
	part := "-- markdown --\n## Exercises\n\n1. One.\n2. Two."
	cells, err := nbsrcParse(part)
	if err != nil {
		t.Fatal(err)
	}
	parts := []partFile{{Path: "notebooks/src/05-x/90-summary.nb", Lines: strings.Split(part, "\n"), Cells: cells}}
	nb := &notebook{Name: "05-x", JSON: map[string]any{"cells": []any{map[string]any{"cell_type": "markdown",
		"source": "## Exercises\n\n1. One. — [solution](solutions/05-x-solutions.ipynb#Solution-1)\n2. Two. — [solution](solutions/05-x-solutions.ipynb#Solution-2)"}}}}
	if got := nb.linkSources(parts); len(got) != 1 {
		t.Fatalf("linked %v", got)
	}
	if src := nbsrc.Text(nbsrc.CellMaps(nb.JSON)[0]["source"]); !strings.Contains(src, "90-summary.nb.html#L2") || !strings.Contains(src, "#Solution-2") {
		t.Errorf("source link or solution link missing:\n%s", src)
	}
}
