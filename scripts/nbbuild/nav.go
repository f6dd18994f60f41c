package main

import (
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"

	"github.com/dimredbook/book/scripts/internal/nbsrc"
)

// Navigation and the contents notebook are generated from the notebook
// sources present, so a new chapter's notebook (notebooks/src/05-…) is
// linked from its neighbours and listed in 00-contents without edits here.
//
// Two kinds of notebook are told apart by their folder's name: chapters
// ("NN-name", two digits) and lectures ("L1-name", an L and a number),
// which sort after the chapters. Each kind is listed under its own marker
// of the contents notebook and navigates among its own kind.

const (
	contentsName = "00-contents"
	reportLink   = "../figures/README.md"
	apiLink      = "https://pkg.go.dev/github.com/dimredbook/book"
	modulePath   = "github.com/dimredbook/book"
)

// title returns the text of a notebook's first level-1 heading, or its name.
func title(nb nbsrc.Notebook) string {
	for _, c := range nb.Cells {
		if c.Type != "markdown" {
			continue
		}
		for _, h := range nbsrc.Headings(c.Source) {
			if h.Level == 1 {
				return h.Text
			}
		}
	}
	return nb.Name
}

// isLecture reports whether a notebook is a lecture ("L1-pca-three-ways"),
// not a chapter ("03-distance-matching").
func isLecture(name string) bool {
	return len(name) > 1 && name[0] == 'L' && name[1] >= '0' && name[1] <= '9'
}

// navCell links a notebook to its neighbours of the same kind (chapter or
// lecture), the contents, the reproduction report and the API
// documentation.
func navCell(nbs []nbsrc.Notebook, i int) nbsrc.Cell {
	same := func(j int) bool {
		return j >= 0 && j < len(nbs) && nbs[j].Name != contentsName && isLecture(nbs[j].Name) == isLecture(nbs[i].Name)
	}
	var parts []string
	if same(i - 1) {
		parts = append(parts, fmt.Sprintf("[← %s](%s.ipynb)", title(nbs[i-1]), nbs[i-1].Name))
	}
	parts = append(parts, fmt.Sprintf("[Contents](%s.ipynb)", contentsName))
	if same(i + 1) {
		parts = append(parts, fmt.Sprintf("[%s →](%s.ipynb)", title(nbs[i+1]), nbs[i+1].Name))
	}
	parts = append(parts, fmt.Sprintf("[Reproduction report](%s)", reportLink), fmt.Sprintf("[API documentation](%s)", apiLink))
	return nbsrc.Cell{Type: "markdown", Source: "<small>" + strings.Join(parts, " · ") + "</small>"}
}

var (
	figFuncRe = regexp.MustCompile(`^Fig(X|P)?(\d+)(?:_(\d+))?`)
	typeRe    = regexp.MustCompile(`\b(dimred|linalg|neighbours|kernel|highdim)\.([A-Z][A-Za-z0-9]*)\{`)
	plannedRe = regexp.MustCompile(`(?m)^\s*((?:\d\d|L\d+)-[\w-]+)\s*\|\s*(.+?)\s*$`)
)

// figureID turns a figure function's name into its id: Fig1_10OilDistances
// → "1.10", FigX4_2… → "X4.2" (the figures package's naming rule).
func figureID(fn string) string {
	if id, ok := strings.CutPrefix(fn, "id:"); ok {
		return id
	}
	m := figFuncRe.FindStringSubmatch(fn)
	if m == nil {
		return ""
	}
	if m[3] == "" {
		return m[1] + m[2]
	}
	return m[1] + m[2] + "." + m[3]
}

func reportAnchor(id string) string {
	return reportLink + "#figure-" + strings.ToLower(strings.ReplaceAll(id, ".", ""))
}

func docLink(pkg, name string) string {
	path := modulePath + "/dimred"
	if pkg != "dimred" {
		path += "/" + pkg
	}
	return "https://pkg.go.dev/" + path + "#" + name
}

// chapterEntry is the contents notebook's entry for one notebook: its
// sections, the figures it shows and the types of the library it uses.
func chapterEntry(nb nbsrc.Notebook) string {
	var b strings.Builder
	fmt.Fprintf(&b, "### [%s](%s.ipynb)\n\n", title(nb), nb.Name)
	var secs []string
	for _, c := range nb.Cells {
		if c.Type != "markdown" {
			continue
		}
		for _, h := range nbsrc.Headings(c.Source) {
			switch {
			case h.Level != 2:
			case strings.ContainsAny(h.Text, "§;$\\"):
				// nbconvert and Jupyter derive these headings' ids in ways
				// that differ (maths, section signs): list them unlinked
				// rather than with a link that may not resolve.
				secs = append(secs, h.Text)
			default:
				secs = append(secs, fmt.Sprintf("[%s](%s.ipynb#%s)", h.Text, nb.Name, nbsrc.Anchor(h.Text)))
			}
		}
	}
	if len(secs) > 0 {
		fmt.Fprintf(&b, "*Sections:* %s\n\n", strings.Join(secs, " · "))
	}
	var figs []string
	seen := map[string]bool{}
	for _, s := range nbsrc.FiguresShown(nb.Name, nb.Cells) {
		if id := figureID(s.Figure); id != "" && !seen[id] {
			seen[id] = true
			figs = append(figs, fmt.Sprintf("[%s](%s)", id, reportAnchor(id)))
		}
	}
	if len(figs) > 0 {
		fmt.Fprintf(&b, "*Figures:* %s\n\n", strings.Join(figs, " · "))
	}
	types := map[string]string{}
	for _, c := range nb.Cells {
		if c.Type != "code" {
			continue
		}
		for _, m := range typeRe.FindAllStringSubmatch(c.Source, -1) {
			if strings.HasSuffix(m[2], "Options") || strings.HasSuffix(m[2], "Settings") {
				continue
			}
			types[m[1]+"."+m[2]] = docLink(m[1], m[2])
		}
	}
	if len(types) > 0 {
		names := make([]string, 0, len(types))
		for n := range types {
			names = append(names, n)
		}
		sort.Strings(names)
		for i, n := range names {
			names[i] = fmt.Sprintf("[`%s`](%s)", n, types[n])
		}
		fmt.Fprintf(&b, "*Methods and tools used:* %s\n\n", strings.Join(names, " · "))
	}
	return strings.TrimRight(b.String(), "\n")
}

// expandContents replaces, in the contents notebook, the markdown cell that
// starts with "<!-- chapters" by one entry per chapter notebook present,
// the cell that starts with "<!-- lectures" by one per lecture notebook,
// and the cell that starts with "<!-- course guide" by the guide's table;
// the cell's lines "NN-name | Title" (or "L1-name | Title") list the
// planned ones, shown as "in preparation" until their notebook exists.
func expandContents(cells []nbsrc.Cell, nbs []nbsrc.Notebook, timings map[string]float64) []nbsrc.Cell {
	var out []nbsrc.Cell
	for _, c := range cells {
		src := strings.TrimSpace(c.Source)
		if c.Type == "markdown" && strings.HasPrefix(src, "<!-- course guide") {
			out = append(out, expandGuide(c, nbs, timings))
			continue
		}
		lectures := strings.HasPrefix(src, "<!-- lectures")
		if c.Type != "markdown" || !(lectures || strings.HasPrefix(src, "<!-- chapters")) {
			out = append(out, c)
			continue
		}
		present := map[string]nbsrc.Notebook{}
		for _, nb := range nbs {
			if nb.Name != contentsName && isLecture(nb.Name) == lectures {
				present[nb.Name] = nb
			}
		}
		planned := map[string]string{}
		for _, m := range plannedRe.FindAllStringSubmatch(c.Source, -1) {
			planned[m[1]] = m[2]
		}
		names := make([]string, 0, len(present)+len(planned))
		for n := range present {
			names = append(names, n)
		}
		for n := range planned {
			if _, ok := present[n]; !ok {
				names = append(names, n)
			}
		}
		sort.Strings(names)
		for _, n := range names {
			if nb, ok := present[n]; ok {
				out = append(out, nbsrc.Cell{Type: "markdown", Source: chapterEntry(nb)})
			} else {
				out = append(out, nbsrc.Cell{Type: "markdown", Source: fmt.Sprintf("### %s\n\n*In preparation.*", planned[n])})
			}
		}
	}
	return out
}

// withNavigation returns notebook i's cells as built: the contents
// notebook expanded, every other notebook between a navigation line at the
// top and at the bottom.
func withNavigation(nbs []nbsrc.Notebook, i int, timings map[string]float64) []nbsrc.Cell {
	nb := nbs[i]
	if nb.Name == contentsName {
		return expandContents(nb.Cells, nbs, timings)
	}
	nav := navCell(nbs, i)
	body, missing := linkExercises(nb)
	if len(missing) > 0 {
		fmt.Fprintf(os.Stderr, "nbbuild: WARNING %s: exercise(s) %s have no \"## Solution N\" heading in %s\n", nb.Name, strings.Join(missing, ", "), nbsrc.SolutionsPart)
	}
	cells := append([]nbsrc.Cell{nav}, body...)
	return append(cells, nav)
}
