package editions

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dimredbook/book/scripts/internal/nbsrc"
)

// The student edition of the repository's notebooks gives nothing away:
// no solution text, no solutions notebook or link, no exercise output;
// the instructor edition has every solutions notebook.
func TestStudentEditionOfTheNotebooks(t *testing.T) {
	nbdir := filepath.Join("..", "..", "..", "notebooks")
	student, err := Student(nbdir)
	if err != nil {
		t.Fatal(err)
	}
	problems, err := CheckStudent(student, nbdir)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
	instructor, err := Instructor(nbdir)
	if err != nil {
		t.Fatal(err)
	}
	sols, _ := filepath.Glob(filepath.Join(nbdir, SolutionsDir, "*.ipynb"))
	if len(sols) == 0 || len(instructor) != len(student)+len(sols) {
		t.Errorf("instructor edition: %d files, student %d + solutions %d", len(instructor), len(student), len(sols))
	}
}

// The check catches each way a solution can leak, and the student edition
// removes what the notebooks carry.
func TestCheckStudentCatchesLeaks(t *testing.T) {
	dir := t.TempDir()
	sol := `{"cells": [
 {"cell_type": "markdown", "metadata": {"tags": ["solution"]}, "source": ["## Solution 1\n", "\n", "The answer is the number of connected components of the graph."]},
 {"cell_type": "code", "metadata": {"tags": ["solution"]}, "outputs": [], "source": ["%%\n", "fmt.Println(countComponents(g))"]}
]}`
	chapter := `{"cells": [
 {"cell_type": "markdown", "metadata": {}, "source": ["1. Count them. — [solution](solutions/05-x-solutions.ipynb#Solution-1)"]},
 {"cell_type": "markdown", "metadata": {}, "source": ["| 1 | [05-x](05-x.ipynb) (≈ 2 min); [solutions](solutions/05-x-solutions.ipynb) (under a minute) — 4 exercises |"]},
 {"cell_type": "code", "metadata": {"tags": ["exercise"]}, "execution_count": 3, "outputs": [{"output_type": "stream", "name": "stdout", "text": ["✗ exercise 5.1: too small\n"]}], "source": ["%%\n", "answer := 0\n", "exercises.Check(\"5.1\", answer)"]},
 {"cell_type": "code", "metadata": {}, "execution_count": 4, "outputs": [{"output_type": "stream", "name": "stdout", "text": ["kept\n"]}], "source": ["%%\n", "fmt.Println(\"kept\")"]}
]}`
	if err := os.MkdirAll(filepath.Join(dir, SolutionsDir), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"05-x.ipynb": chapter, SolutionsDir + "/05-x-solutions.ipynb": sol} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	student, err := Student(dir)
	if err != nil {
		t.Fatal(err)
	}
	if problems, err := CheckStudent(student, dir); err != nil || len(problems) != 0 {
		t.Fatalf("clean student edition: %v %v", problems, err)
	}
	var nb struct {
		Cells []map[string]any `json:"cells"`
	}
	if err := json.Unmarshal(student[0].Data, &nb); err != nil {
		t.Fatal(err)
	}
	if src := nbsrc.Text(nb.Cells[0]["source"]); src != "1. Count them." {
		t.Errorf("solution link kept: %q", src)
	}
	if src := nbsrc.Text(nb.Cells[1]["source"]); src != "| 1 | [05-x](05-x.ipynb) (≈ 2 min) — 4 exercises |" {
		t.Errorf("guide's solutions link kept: %q", src)
	}
	nb.Cells = append(nb.Cells[:1], nb.Cells[2:]...)
	if outs := nb.Cells[1]["outputs"].([]any); len(outs) != 0 || nb.Cells[1]["execution_count"] != nil {
		t.Errorf("exercise output kept: %v", nb.Cells[1])
	}
	if outs := nb.Cells[2]["outputs"].([]any); len(outs) != 1 {
		t.Errorf("an ordinary cell lost its output")
	}
	// Leaks: the original chapter (link and exercise output), a chapter
	// quoting a solution paragraph and code, a solutions notebook.
	leaky := strings.Replace(chapter, `"kept\n"]}], "source"`, `"kept\n"]}], "source": ["The answer is the number of connected components of the graph.\n", "fmt.Println(countComponents(g))"], "x"`, 1)
	leaky = strings.Replace(leaky, `"%%\n", "fmt.Println(\"kept\")"`, `"%%\n", "fmt.Println(countComponents(g))"`, 1)
	files := []File{{Path: "notebooks/05-x.ipynb", Data: []byte(chapter)}, {Path: "notebooks/06-y.ipynb", Data: []byte(leaky)},
		{Path: "notebooks/solutions/05-x-solutions.ipynb", Data: []byte(sol)}}
	problems, err := CheckStudent(files, dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"links to a solutions notebook", "exercise cell 3 has 1 output", "solution text of 05-x-solutions.ipynb (cell 1)", "solution text of 05-x-solutions.ipynb (cell 2)", "a solutions notebook", "is a solution cell"} {
		found := false
		for _, p := range problems {
			found = found || strings.Contains(p, want)
		}
		if !found {
			t.Errorf("leak not reported: %q (reports: %q)", want, problems)
		}
	}
}
