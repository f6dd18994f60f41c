package figures

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// ReportRow is one figure's row of figures/report.json.
//
// Kind is "book" for a figure of the draft and "added" for one beyond it
// ("X…" ids). Function is the figure function's import path and name and
// Doc its documentation page; Notebook and Section name the notebook and
// the heading under which it is shown (empty when no notebook shows it),
// NotebookLink the notebook with the heading's anchor.
type ReportRow struct {
	ID           string   `json:"id"`
	Chapter      int      `json:"chapter"`
	Kind         string   `json:"kind"`
	Caption      string   `json:"caption"`
	Data         string   `json:"data"`
	Status       Status   `json:"status"`
	Why          string   `json:"why"`
	Numbers      []Number `json:"numbers"`
	Files        []string `json:"files"`
	Function     string   `json:"function"`
	Doc          string   `json:"doc"`
	Notebook     string   `json:"notebook,omitempty"`
	Section      string   `json:"section,omitempty"`
	NotebookLink string   `json:"notebook_link,omitempty"`
}

// DocBase is where the figure functions' documentation lives.
const DocBase = "https://pkg.go.dev/"

// Row summarises a drawn figure for the report; files are the rendered
// files' paths relative to the repository root.
func Row(e Entry, f *Figure, files []string) ReportRow {
	why := f.Why
	st := f.Resolve()
	if st == Differs && why == "" {
		var bad []string
		for _, n := range f.Numbers {
			if !n.Agrees() {
				bad = append(bad, fmt.Sprintf("%s: %s %s, ours %s", n.Name, n.Source, FormatValue(n.Want()), FormatValue(n.Ours)))
			}
		}
		why = strings.Join(bad, "; ")
	}
	nums := f.Numbers
	if nums == nil {
		nums = []Number{}
	}
	kind := "book"
	if IsAdded(f.ID) {
		kind = "added"
	}
	fn := e.Func()
	doc := ""
	if i := strings.LastIndex(fn, "."); i > 0 {
		doc = DocBase + fn[:i] + "#" + fn[i+1:]
	}
	return ReportRow{ID: f.ID, Chapter: e.Chapter, Kind: kind, Caption: f.Caption, Data: f.Data,
		Status: st, Why: why, Numbers: nums, Files: files, Function: fn, Doc: doc}
}

// WriteReportJSON writes rows as the JSON array of figures/report.json.
func WriteReportJSON(w io.Writer, rows []ReportRow) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(rows)
}

// Tally counts rows of one kind ("book" or "added"; "" for all) by status.
func Tally(rows []ReportRow, kind string) (t map[Status]int, total int) {
	t = map[Status]int{}
	for _, r := range rows {
		if kind == "" || r.Kind == kind {
			t[r.Status]++
			total++
		}
	}
	return t, total
}

// statusOrder is the order statuses are listed in summaries.
var statusOrder = []Status{Reproduced, Consistent, Redrawn, Editorial, Differs, NotReproducible, Added, Erratum}

// Summary is the report's one-line summary: book figures and added figures
// counted separately, e.g. "38 book figures: 32 reproduced, 3 redrawn, …;
// 10 added figures: 9 added, 1 erratum".
func Summary(rows []ReportRow) string {
	part := func(kind, label string) string {
		t, n := Tally(rows, kind)
		var s []string
		for _, st := range statusOrder {
			if t[st] > 0 {
				s = append(s, fmt.Sprintf("%d %s", t[st], st))
			}
		}
		return fmt.Sprintf("%d %s: %s", n, label, strings.Join(s, ", "))
	}
	return part("book", "book figures") + "; " + part("added", "added figures")
}

// BookNumberCounts counts the numbers printed in the draft that the report
// compares sharply with ours (within a tolerance), and how many of them
// agree. Seed checks are counted apart, by SeedCheckCounts.
func BookNumberCounts(rows []ReportRow) (agree, total int) {
	for _, r := range rows {
		for _, n := range r.Numbers {
			if n.HasBook() && !n.IsSeedCheck() {
				total++
				if n.Agrees() {
					agree++
				}
			}
		}
	}
	return agree, total
}

// SeedCheckCounts counts the checks of seed-dependent book numbers (the
// book's value inside our range over seeds, its ordering on our medians)
// and how many of them hold.
func SeedCheckCounts(rows []ReportRow) (hold, total int) {
	for _, r := range rows {
		for _, n := range r.Numbers {
			if n.HasBook() && n.IsSeedCheck() {
				total++
				if n.Agrees() {
					hold++
				}
			}
		}
	}
	return hold, total
}

// Headline is the report's headline: Summary, then the sharp agreements
// with the draft's numbers and, apart from them, the seed checks.
func Headline(rows []ReportRow) string {
	return Summary(rows) + "." + numbersLine(rows)
}

func numbersLine(rows []ReportRow) string {
	agree, total := BookNumberCounts(rows)
	s := fmt.Sprintf(" Of the %d numbers printed in the draft that the figures check sharply, %d agree with ours", total, agree)
	if hold, n := SeedCheckCounts(rows); n > 0 {
		s += fmt.Sprintf("; apart from them, %d checks of seed-dependent book numbers (the book's value inside our range over seeds, its ordering on our medians): %d hold", n, hold)
	}
	return s + "."
}

// WriteReportMarkdown writes figures/README.md: a summary and, per chapter,
// each figure's picture with its numbers, each with its source. Image and
// notebook links are relative to the figures folder.
func WriteReportMarkdown(w io.Writer, rows []ReportRow) error {
	var b strings.Builder
	b.WriteString("# Reproduction report\n\n")
	b.WriteString("Generated by `scripts/reproduce`; do not edit. Every number in the *ours* column is computed\n")
	b.WriteString("when the report is written. `report.json` holds the same rows for machines.\n\n")
	fmt.Fprintf(&b, "**%s.**%s\n\n", Summary(rows), numbersLine(rows))
	b.WriteString(reportLegend)
	b.WriteString("| figure | status | caption | function | notebook |\n|---|---|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| [%s](#figure-%s) | %s | %s | %s | %s |\n", r.ID, anchor(r.ID), r.Status,
			mdCell(r.Caption), funcLink(r), notebookLink(r))
	}
	chapter := -1
	for _, r := range rows {
		if r.Chapter != chapter {
			chapter = r.Chapter
			if chapter == 0 {
				b.WriteString("\n## The spectral paper\n")
			} else {
				fmt.Fprintf(&b, "\n## Chapter %d\n", chapter)
			}
		}
		fmt.Fprintf(&b, "\n### Figure %s\n\n%s\n\n*Data:* %s. *Status:* **%s**.", r.ID, r.Caption, r.Data, r.Status)
		if r.Why != "" {
			fmt.Fprintf(&b, " %s", r.Why)
		}
		fmt.Fprintf(&b, "\n\n*Drawn by* %s", funcLink(r))
		if r.Notebook != "" {
			fmt.Fprintf(&b, "; *shown in* %s", notebookLink(r))
		}
		b.WriteString(".\n\n")
		for _, f := range r.Files {
			if strings.HasSuffix(f, ".png") {
				fmt.Fprintf(&b, "![Figure %s](%s)\n\n", r.ID, strings.TrimPrefix(f, "figures/"))
			}
		}
		if len(r.Numbers) > 0 {
			b.WriteString("| quantity | ours | book | reference | tolerance | check |\n|---|---|---|---|---|---|\n")
			for _, n := range r.Numbers {
				book, ref, check := "", "", ""
				ours := FormatValue(n.Ours)
				switch {
				case n.Kind == KindSeedRange && n.HasBook():
					book = FormatValue(n.Want()) + " (" + n.Cite + ")"
					ours = fmt.Sprintf("median %s, range %s–%s over %d seeds", FormatValue(n.Ours), FormatValue(n.Lo), FormatValue(n.Hi), n.Seeds)
					check = "book inside our seed range"
					if !n.Agrees() {
						check = "**book outside our seed range**"
					}
				case n.Kind == KindOrdering && n.HasBook():
					book = "the ordering (" + n.Cite + ")"
					ours = "holds"
					check = "holds on our medians"
					if !n.Agrees() {
						ours, check = "fails", "**fails on our medians**"
					}
				case n.HasBook():
					book = FormatValue(n.Want())
					if n.Cite != "" {
						book += " (" + n.Cite + ")"
					}
					check = "agrees with the book"
					if !n.Agrees() {
						check = "**differs from the book**"
					}
				case n.HasReference():
					ref = FormatValue(n.Want()) + " (" + n.Cite + ")"
					check = "matches the reference"
					if !n.Agrees() {
						check = "**differs from the reference**"
					}
				}
				tol := ""
				if check != "" && !n.IsSeedCheck() {
					tol = FormatValue(n.Tol)
				}
				fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n", mdCell(n.Name), ours,
					mdCell(book), mdCell(ref), tol, check)
			}
			b.WriteString("\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

const reportLegend = `*Statuses.* Book figures: **reproduced** (drawn as the book's; every number the draft
prints agrees), **redrawn** (a schematic or substitute drawn differently from the book's),
**editorial** (the draft has only a placeholder), **consistent** (the book's numbers depend on
random draws the draft does not record; each lies inside our range over at least ten seeds and
their ordering holds on our medians — weaker than reproduced, counted apart), **differs** (a number disagrees; the row says
why), **not-reproducible** (the data are not public). Figures beyond the book (ids X…):
**added**, or **erratum** when the figure exhibits an error in the draft's text.

*Numbers.* Each number names its source: **book** (printed in the draft, with the figure,
section, equation or box), **reference** (not printed in the draft; computed independently
for this project, with how), or none (ours only). Only book numbers count as agreement with
the book; sharp checks (within a tolerance) and seed checks (range and ordering over seeds) are
counted apart.

`

func funcLink(r ReportRow) string {
	name := r.Function[strings.LastIndex(r.Function, ".")+1:]
	if r.Doc == "" {
		return "`" + name + "`"
	}
	return fmt.Sprintf("[`%s`](%s)", name, r.Doc)
}

func notebookLink(r ReportRow) string {
	if r.Notebook == "" {
		return "—"
	}
	nb := strings.TrimSuffix(strings.TrimPrefix(r.Notebook, "notebooks/"), ".ipynb")
	label := nb
	if r.Section != "" {
		label += ", " + r.Section
	}
	return fmt.Sprintf("[%s](../%s)", mdCell(label), r.NotebookLink)
}

func anchor(id string) string { return strings.ToLower(strings.ReplaceAll(id, ".", "")) }

func mdCell(s string) string { return strings.ReplaceAll(strings.ReplaceAll(s, "|", "\\|"), "\n", " ") }
