package main

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/dimredbook/book/scripts/internal/nbsrc"
)

// The course guide of the contents notebook: the cell starting
// "<!-- course guide" lists the sessions of a suggested course, one line
// each, "N | title | notebooks | exercises to set", and nbbuild replaces it
// by a table whose notebook run times come from notebooks/timings.tsv (the
// times scripts/run-notebooks --inplace measured, never typed), whose
// exercise counts and checkable answers come from the notebooks' sources,
// and whose notebooks are linked when present (a notebook not in this copy
// is named, marked "not in this copy").

const timingsFile = "timings.tsv"

var (
	sessionRe = regexp.MustCompile(`(?m)^\s*(\d+)\s*\|\s*(.+?)\s*\|\s*(.+?)\s*\|\s*(.*?)\s*$`)
	checkRe   = regexp.MustCompile(`exercises\.Check\("([^"]+)"`)
)

// readTimings reads notebook run times (seconds) from path, if it exists,
// and the load averages they were measured under (key name+"\tload").
func readTimings(path string) map[string]float64 {
	out := map[string]float64{}
	f, err := os.Open(path)
	if err != nil {
		return out
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		fs := strings.Split(line, "\t")
		if len(fs) < 2 {
			continue
		}
		if s, err := strconv.ParseFloat(fs[1], 64); err == nil {
			out[fs[0]] = s
		}
		if len(fs) >= 3 {
			if l, err := strconv.ParseFloat(fs[2], 64); err == nil {
				out[fs[0]+"\tload"] = l
			}
		}
	}
	return out
}

// runTime states a measured time coarsely: "under a minute", "≈ 3 min".
func runTime(secs float64, ok bool) string {
	switch {
	case !ok:
		return "not yet measured"
	case secs < 60:
		return "under a minute"
	}
	return fmt.Sprintf("≈ %d min", int(math.Round(secs/60)))
}

// exerciseCount is the number of numbered exercises under a notebook's
// Exercises heading, and the ids its exercise cells check.
func exerciseCount(nb nbsrc.Notebook) (n int, checked []string) {
	for _, c := range nb.Cells {
		if c.Type == "markdown" {
			if loc := exercisesHeadingRe.FindStringIndex(c.Source); loc != nil {
				for _, l := range strings.Split(c.Source[loc[1]:], "\n") {
					if strings.HasPrefix(l, "#") {
						break
					}
					if exerciseItemRe.MatchString(l) {
						n++
					}
				}
			}
		}
		if c.Type == "code" && c.HasTag(nbsrc.ExerciseTag) {
			for _, m := range checkRe.FindAllStringSubmatch(c.Source, -1) {
				checked = append(checked, m[1])
			}
		}
	}
	return n, checked
}

// expandGuide replaces the course-guide cell by the generated guide.
func expandGuide(c nbsrc.Cell, nbs []nbsrc.Notebook, timings map[string]float64) nbsrc.Cell {
	present := map[string]nbsrc.Notebook{}
	for _, nb := range nbs {
		present[nb.Name] = nb
	}
	var b strings.Builder
	b.WriteString("| Session | Topic | Notebooks (run time, measured) | Exercises to set | Run time of the session's notebooks |\n|---|---|---|---|---|\n")
	total, measured, missing := 0.0, 0, 0
	for _, m := range sessionRe.FindAllStringSubmatch(c.Source, -1) {
		var nbCells []string
		session, sessionOK := 0.0, true
		for _, name := range strings.Fields(m[3]) {
			nb, ok := present[name]
			if !ok {
				nbCells = append(nbCells, fmt.Sprintf("`%s` (not in this copy)", name))
				missing++
				sessionOK = false
				continue
			}
			secs, ok := timings[name]
			if ok {
				total += secs
				session += secs
				measured++
			} else {
				sessionOK = false
			}
			entry := fmt.Sprintf("[%s](%s.ipynb) (%s)", name, name, runTime(secs, ok))
			if len(nb.Solutions) > 0 {
				ss, ok := timings[solutionsName(name)]
				entry += fmt.Sprintf("; [solutions](%s/%s.ipynb) (%s)", solutionsDir, solutionsName(name), runTime(ss, ok))
			}
			if n, checked := exerciseCount(nb); n > 0 {
				entry += fmt.Sprintf(" — %d exercises", n)
				if len(checked) > 0 {
					sort.Strings(checked)
					entry += fmt.Sprintf(", checked: %s", strings.Join(checked, ", "))
				}
			}
			nbCells = append(nbCells, entry)
		}
		st := runTime(session, sessionOK)
		if !sessionOK && session > 0 {
			st = "at least " + runTime(session, true)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", m[1], m[2], strings.Join(nbCells, "<br>"), m[4], st)
	}
	fmt.Fprintf(&b, "\n*Run times* are those `scripts/run-notebooks --inplace` measured for the committed outputs (%s, the sum of the code cells' times including GoNB's compilation, on the machine and load recorded there); a first run on a fresh machine adds the Go build cache, and the chapter 7 comparison computes once, then is read from the result cache. ", "`notebooks/"+timingsFile+"`")
	if measured > 0 {
		fmt.Fprintf(&b, "The %d notebooks measured take %s in all", measured, runTime(total, true))
		lo, hi := math.Inf(1), math.Inf(-1)
		for k, v := range timings {
			if strings.HasSuffix(k, "\tload") {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
		switch {
		case lo > hi:
			b.WriteString(".")
		case lo == hi:
			fmt.Fprintf(&b, ", measured with a load average of %.1f at the end of the run on the 2-core machine that ran them (on an idle machine they run faster).", lo)
		default:
			fmt.Fprintf(&b, ", measured with load averages between %.1f and %.1f at the end of the runs (on an idle machine they run faster).", lo, hi)
		}
	}
	if missing > 0 {
		b.WriteString(" Notebooks marked \"not in this copy\" belong to the course and are linked once they are present.")
	}
	return nbsrc.Cell{Type: "markdown", Source: strings.TrimSpace(b.String())}
}

// guideTimings reads the timings file beside the notebooks folder out.
func guideTimings(out string) map[string]float64 {
	return readTimings(filepath.Join(out, timingsFile))
}
