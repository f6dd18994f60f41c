package main

import (
	"strings"
	"testing"
)

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
