package main

import (
	"fmt"
	"os"
	"regexp"
	"strings"

	"github.com/dimredbook/book/scripts/internal/nbsrc"
)

// The worked solutions of a notebook's exercises (its part file
// 95-solutions.nb) are not part of the notebook: they become a notebook of
// their own, notebooks/solutions/NN-name-solutions.ipynb, which the student
// edition leaves out (scripts/editions). Each numbered exercise under the
// notebook's "## Exercises" heading links to its solution, a heading
// "## Solution N" of the solutions part.

const solutionsDir = "solutions"

// solutionsName is the name of notebook name's solutions notebook.
func solutionsName(name string) string { return name + "-solutions" }

var (
	exercisesHeadingRe = regexp.MustCompile(`(?m)^#{2,3}\s+Exercises\s*$`)
	exerciseItemRe     = regexp.MustCompile(`^(\d+)\.\s`)
	solutionHeadingRe  = regexp.MustCompile(`(?m)^#{2,3}\s+(Solution\s+(\d+))\s*$`)
	solutionLinkRe     = regexp.MustCompile(` — \[solution\]\([^)]*\)$`)
	gonbDirRe          = regexp.MustCompile(`\$\{GONB_DIR\}/\.\.([" ])`)
)

// solutionAnchors maps exercise numbers to the anchors of their solutions'
// headings.
func solutionAnchors(sol []nbsrc.Cell) map[string]string {
	out := map[string]string{}
	for _, c := range sol {
		if c.Type != "markdown" {
			continue
		}
		for _, m := range solutionHeadingRe.FindAllStringSubmatch(c.Source, -1) {
			out[m[2]] = nbsrc.Anchor(m[1])
		}
	}
	return out
}

// linkExercises returns the notebook's cells with each numbered exercise
// under its Exercises heading followed by a link to its solution, and the
// exercise numbers that have no solution.
func linkExercises(nb nbsrc.Notebook) (cells []nbsrc.Cell, missing []string) {
	anchors := solutionAnchors(nb.Solutions)
	target := solutionsDir + "/" + solutionsName(nb.Name) + ".ipynb"
	for _, c := range nb.Cells {
		if c.Type == "markdown" && len(nb.Solutions) > 0 {
			c.Source = retargetSolutionLinks(c.Source, target)
		}
		loc := exercisesHeadingRe.FindStringIndex(c.Source)
		if c.Type != "markdown" || loc == nil || len(nb.Solutions) == 0 {
			cells = append(cells, c)
			continue
		}
		lines := strings.Split(c.Source[loc[1]:], "\n")
		for i, l := range lines {
			if strings.HasPrefix(l, "#") {
				break // the next heading ends the list
			}
			m := exerciseItemRe.FindStringSubmatch(l)
			if m == nil {
				continue
			}
			a, ok := anchors[m[1]]
			if !ok {
				missing = append(missing, m[1])
				continue
			}
			if strings.Contains(l, "]("+target+"#"+a+")") && !solutionLinkRe.MatchString(l) {
				continue // the exercise links its solution itself
			}
			lines[i] = solutionLinkRe.ReplaceAllString(l, "") + fmt.Sprintf(" — [solution](%s#%s)", target, a)
		}
		c.Source = c.Source[:loc[1]] + strings.Join(lines, "\n")
		cells = append(cells, c)
	}
	return cells, missing
}

// inNotebookSolutionLinkRe matches a link to a solution written as an
// anchor of the notebook itself, "](#Solution-3)" or "](#Worked-solutions)".
var inNotebookSolutionLinkRe = regexp.MustCompile(`\]\(#(Solution-\d+|Worked-solutions)\)`)

// retargetSolutionLinks points links to the notebook's own solution
// anchors at the solutions notebook target, where the solutions now live
// (a source may link "#Solution-3" as if the part were appended).
func retargetSolutionLinks(src, target string) string {
	return inNotebookSolutionLinkRe.ReplaceAllStringFunc(src, func(m string) string {
		a := m[3 : len(m)-1]
		if a == "Worked-solutions" {
			return "](" + target + ")"
		}
		return "](" + target + "#" + a + ")"
	})
}

// solutionsCells is the solutions notebook of nbs[i]: navigation, a title,
// the notebook's declarations (its code cells that are not %% programs:
// imports, helper functions, the module set-up, whose path is one folder
// deeper), the solutions, navigation.
func solutionsCells(nbs []nbsrc.Notebook, i int) []nbsrc.Cell {
	nb := nbs[i]
	t := title(nb)
	nav := nbsrc.Cell{Type: "markdown", Source: fmt.Sprintf("<small>[← %s](../%s.ipynb#Exercises) · [Contents](../%s.ipynb) · [Reproduction report](../%s) · [API documentation](%s)</small>",
		t, nb.Name, contentsName, reportLink, apiLink)}
	cells := []nbsrc.Cell{nav, {Type: "markdown", Source: fmt.Sprintf("# Solutions — %s\n\n"+
		"Worked solutions to the [exercises of %s](../%s.ipynb#Exercises), kept apart from the questions "+
		"(the student edition leaves this notebook out). The first cells repeat the notebook's set-up — "+
		"the module, its imports and helper functions — so that every solution runs here on its own.", t, t, nb.Name)}}
	for _, c := range nb.Cells {
		if c.Type != "code" || strings.HasPrefix(strings.TrimSpace(c.Source), "%%") {
			continue
		}
		c.Source = gonbDirRe.ReplaceAllStringFunc(c.Source, func(m string) string {
			return "${GONB_DIR}/../.." + m[len(m)-1:]
		})
		c.Tags = nil
		cells = append(cells, c)
	}
	for _, c := range nb.Solutions {
		c.Tags = append(append([]string(nil), c.Tags...), "solution")
		cells = append(cells, c)
	}
	return append(cells, nav)
}

// writeOrCheck builds the notebook at path from cells, or with check
// compares them; it reports staleness like the chapter notebooks.
func writeOrCheck(name, path string, cells []nbsrc.Cell, check bool, stale, rerun *int) {
	if check {
		if msg, codeChanged := compare(path, cells); msg != "" {
			how := "only its Markdown differs: run go run ./scripts/nbbuild (no re-execution needed)"
			if codeChanged {
				how = "run scripts/run-notebooks --inplace " + name[:2]
				*rerun++
			}
			fmt.Fprintf(os.Stderr, "nbbuild: %s is stale: %s; %s\n", path, msg, how)
			*stale++
		}
		return
	}
	b, kept := notebook(name, cells, path)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		fatal(err)
	}
	note := ""
	if kept {
		note = ", code cells and outputs unchanged"
	}
	fmt.Printf("nbbuild: wrote %s (%d cells%s)\n", path, len(cells), note)
}
