package editions

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/dimredbook/book/scripts/internal/nbsrc"
)

// CheckStudent reports what the student edition files give away: any
// paragraph of a solution (a cell tagged SolutionTag in the solutions
// notebooks of nbdir: each Markdown paragraph and each code line of 25
// characters or more), a solutions notebook, a link to one, or an output
// of an exercise cell. It returns one line per problem.
func CheckStudent(student []File, nbdir string) ([]string, error) {
	var problems []string
	var text strings.Builder
	for _, f := range student {
		if strings.Contains(f.Path, "/"+SolutionsDir+"/") || strings.HasSuffix(f.Path, "-solutions.ipynb") {
			problems = append(problems, f.Path+": a solutions notebook")
		}
		nb, err := nbsrc.DecodeNotebook(f.Data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Path, err)
		}
		for i, c := range nbsrc.CellMaps(nb) {
			src := nbsrc.Text(c["source"])
			text.WriteString(src + "\n")
			tags := nbsrc.CellTags(c)
			if tags[SolutionTag] {
				problems = append(problems, fmt.Sprintf("%s: cell %d is a solution cell", f.Path, i+1))
			}
			outs, _ := c["outputs"].([]any)
			if tags[ExerciseTag] && len(outs) > 0 {
				problems = append(problems, fmt.Sprintf("%s: exercise cell %d has %d output(s)", f.Path, i+1, len(outs)))
			}
			if c["cell_type"] == "markdown" && strings.Contains(src, "]("+SolutionsDir+"/") {
				problems = append(problems, fmt.Sprintf("%s: cell %d links to a solutions notebook", f.Path, i+1))
			}
			for _, o := range outs {
				b, _ := json.Marshal(o)
				text.Write(b)
				text.WriteString("\n")
			}
		}
	}
	all := text.String()
	sols, err := filepath.Glob(filepath.Join(nbdir, SolutionsDir, "*.ipynb"))
	if err != nil {
		return nil, err
	}
	solutionCells := 0
	for _, p := range sols {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		nb, err := nbsrc.DecodeNotebook(b)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		for i, c := range nbsrc.CellMaps(nb) {
			if !nbsrc.CellTags(c)[SolutionTag] {
				continue
			}
			solutionCells++
			for _, piece := range pieces(c["cell_type"] == "code", nbsrc.Text(c["source"])) {
				if strings.Contains(all, piece) {
					problems = append(problems, fmt.Sprintf("solution text of %s (cell %d) is in the student edition: %q", filepath.Base(p), i+1, piece))
				}
			}
		}
	}
	if len(sols) > 0 && solutionCells == 0 {
		problems = append(problems, "the solutions notebooks have no cell tagged "+SolutionTag+": nothing to check against (run go run ./scripts/nbbuild)")
	}
	return problems, nil
}

// pieces are the distinctive parts of a solution cell: a code cell whole
// (its single lines, "ds, err := datasets.Oil(\"train\")", are common to
// every notebook), a Markdown cell's paragraphs of 25 characters or more.
func pieces(code bool, src string) []string {
	if code {
		return []string{strings.TrimSpace(src)}
	}
	var out []string
	for _, p := range strings.Split(src, "\n\n") {
		if p = strings.TrimSpace(p); len([]rune(p)) >= 25 {
			out = append(out, p)
		}
	}
	return out
}
