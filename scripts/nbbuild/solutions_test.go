package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dimredbook/book/exercises"
	"github.com/dimredbook/book/scripts/internal/nbsrc"
)

// Exercises link to their solutions, the solutions notebook repeats the
// declarations one folder deeper and tags its cells, an exercise without a
// solution is reported, and tags reach the cell metadata.
func TestSolutionsNotebook(t *testing.T) {
	nb := nbsrc.Notebook{Name: "05-x", Cells: []nbsrc.Cell{
		{Type: "markdown", Source: "# Chapter 5 — X"},
		{Type: "code", Source: `!*go mod edit -replace "github.com/dimredbook/book=${GONB_DIR}/.." -require github.com/dimredbook/book@v0.0.0-00010101000000-000000000000`},
		{Type: "code", Source: "func roll() int { return 1 }"},
		{Type: "code", Source: "%%\nfmt.Println(roll())"},
		{Type: "markdown", Source: "## Exercises\n\n1. One.\n2. Two.\n3. Three."},
		{Type: "code", Source: "%%\nanswer := 0\nexercises.Check(\"5.1\", answer)", Tags: []string{"exercise"}},
	}, Solutions: []nbsrc.Cell{
		{Type: "markdown", Source: "## Solution 1\n\nBecause.\n\n## Solution 2\n\nSo."},
		{Type: "code", Source: "%%\nexercises.Check(\"5.1\", roll())"},
	}}
	cells, missing := linkExercises(nb)
	if strings.Join(missing, ",") != "3" {
		t.Errorf("missing solutions %v, want [3]", missing)
	}
	ex := cells[4].Source
	if !strings.Contains(ex, "1. One. — [solution](solutions/05-x-solutions.ipynb#Solution-1)") ||
		!strings.Contains(ex, "2. Two. — [solution](solutions/05-x-solutions.ipynb#Solution-2)") || strings.Contains(ex, "Three. —") {
		t.Errorf("exercise links:\n%s", ex)
	}
	again, _ := linkExercises(nbsrc.Notebook{Name: nb.Name, Cells: cells, Solutions: nb.Solutions})
	if again[4].Source != ex {
		t.Errorf("linking twice changed the list:\n%s", again[4].Source)
	}
	sol := solutionsCells([]nbsrc.Notebook{nb}, 0)
	var src []string
	for _, c := range sol {
		src = append(src, c.Source)
	}
	all := strings.Join(src, "\n")
	if !strings.Contains(all, `${GONB_DIR}/../.."`) || strings.Contains(all, `${GONB_DIR}/.."`) {
		t.Errorf("module path not one folder deeper:\n%s", all)
	}
	if !strings.Contains(all, "func roll()") || strings.Contains(all, "fmt.Println(roll())") || strings.Contains(all, "answer := 0") {
		t.Errorf("declarations (and only they) should be repeated:\n%s", all)
	}
	last := sol[len(sol)-2]
	if !last.HasTag("solution") || sol[2].HasTag("solution") {
		t.Errorf("tags: solution cell %v, declaration %v", last.Tags, sol[2].Tags)
	}
	path := filepath.Join(t.TempDir(), "x.ipynb")
	b, _ := notebook(nb.Name, cells, path)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	var out struct {
		Cells []struct {
			Metadata map[string]any `json:"metadata"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if tags, _ := out.Cells[5].Metadata["tags"].([]any); len(tags) != 1 || tags[0] != "exercise" {
		t.Errorf("exercise cell metadata %v", out.Cells[5].Metadata)
	}
	if msg, _ := compare(path, cells); msg != "" {
		t.Errorf("compare after writing: %s", msg)
	}
	cells[5].Tags = nil
	if msg, code := compare(path, cells); !strings.Contains(msg, "tags differ") || code {
		t.Errorf("compare with a tag removed: %q, code changed %v", msg, code)
	}
}

// The course guide: linked notebooks with their measured times, exercise
// counts and checked ids; absent notebooks named; no time typed.
func TestCourseGuideTable(t *testing.T) {
	nbs := []nbsrc.Notebook{
		{Name: "05-x", Cells: []nbsrc.Cell{{Type: "markdown", Source: "## Exercises\n\n1. a\n2. b"},
			{Type: "code", Source: "%%\nexercises.Check(\"5.2\", answer)", Tags: []string{"exercise"}}},
			Solutions: []nbsrc.Cell{{Type: "markdown", Source: "## Solution 1"}}},
	}
	g := expandGuide(nbsrc.Cell{Type: "markdown", Source: "<!-- course guide\n1 | Topic | 05-x L9-y | 5.1\n-->"}, nbs,
		map[string]float64{"05-x": 150, "05-x-solutions": 20}).Source
	for _, want := range []string{"| 1 | Topic | [05-x](05-x.ipynb) (≈ 3 min); [solutions](solutions/05-x-solutions.ipynb) (under a minute) — 2 exercises, checked: 5.2<br>`L9-y` (not in this copy) | 5.1 | at least ≈ 3 min |",
		"The 1 notebooks measured take ≈ 3 min in all."} {
		if !strings.Contains(g, want) {
			t.Errorf("guide lacks %q:\n%s", want, g)
		}
	}
	if g2 := expandGuide(nbsrc.Cell{Source: "<!-- course guide\n1 | T | 05-x | -\n-->"}, nbs, nil).Source; !strings.Contains(g2, "(not yet measured)") {
		t.Errorf("unmeasured notebook:\n%s", g2)
	}
}

// In the repository's chapter notebooks (NN-name) every exercise has a
// solution, every exercise cell checks a registered answer, and every
// registered chapter answer ("7.1") has an exercise cell that checks it
// and a solution that checks its own result against it. (Lecture
// notebooks, L1-…, follow their own layout: nbbuild warns about theirs.)
func TestRepositoryExercises(t *testing.T) {
	nbs, err := nbsrc.ReadAll(filepath.Join("..", "..", "notebooks", "src"))
	if err != nil {
		t.Fatal(err)
	}
	registered := map[string]bool{}
	for _, id := range exercises.IDs() {
		registered[id] = true
	}
	inCells, inSolutions := map[string]bool{}, map[string]bool{}
	for _, nb := range nbs {
		if len(nb.Name) < 3 || nb.Name[0] < '0' || nb.Name[0] > '9' {
			continue
		}
		n, checked := exerciseCount(nb)
		if n > 0 && len(nb.Solutions) == 0 {
			t.Errorf("%s: %d exercises and no %s", nb.Name, n, nbsrc.SolutionsPart)
		}
		if _, missing := linkExercises(nb); len(missing) > 0 {
			t.Errorf("%s: exercises %v have no solution", nb.Name, missing)
		}
		for _, id := range checked {
			inCells[id] = true
			if !registered[id] {
				t.Errorf("%s: an exercise cell checks %q, which no exercises/chNN.go registers", nb.Name, id)
			}
		}
		for _, c := range nb.Solutions {
			for _, m := range checkRe.FindAllStringSubmatch(c.Source, -1) {
				inSolutions[m[1]] = true
			}
		}
	}
	for id := range registered {
		if id == "" || id[0] < '0' || id[0] > '9' {
			continue // test ids, lecture ids
		}
		if !inCells[id] {
			t.Errorf("answer %s is registered but no exercise cell checks it", id)
		}
		if !inSolutions[id] {
			t.Errorf("answer %s is registered but no solution checks its own result against it", id)
		}
	}
}

// TestRetargetSolutionLinks: a lecture's exercises linked "#Solution-N"
// and "#Worked-solutions" in their own notebook; once the solutions moved
// to their own notebook those anchors did not exist (the website's link
// check failed on L1–L3). They now point at the solutions notebook.
func TestRetargetSolutionLinks(t *testing.T) {
	got := retargetSolutionLinks("see the [solutions](#Worked-solutions); 2. Do it. [Solution](#Solution-2) and [x](#Other)", "solutions/L1-x-solutions.ipynb")
	want := "see the [solutions](solutions/L1-x-solutions.ipynb); 2. Do it. [Solution](solutions/L1-x-solutions.ipynb#Solution-2) and [x](#Other)"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}
