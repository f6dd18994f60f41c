// Package nbsrc reads what the project's notebooks say about themselves:
// which figures a code cell shows, which cells print, and under which
// heading a cell sits. scripts/nbcheck derives each executed cell's expected
// outputs from it, scripts/render links report rows to notebook sections and
// scripts/nbbuild writes the contents notebook. It reads cell sources only,
// so a new chapter's notebook is covered without changes here. Text and
// Lines convert nbformat's multi-line strings for every tool that reads or
// writes .ipynb files (nbbuild, nbcheck, booksite, the editions).
package nbsrc

import (
	"regexp"
	"strings"
)

// Cell is one notebook cell: "markdown" or "code", its source and its
// tags (carried into the cell's metadata, e.g. ExerciseTag).
type Cell struct {
	Type   string
	Source string
	Tags   []string
}

// HasTag reports whether the cell carries tag.
func (c Cell) HasTag(tag string) bool {
	for _, t := range c.Tags {
		if t == tag {
			return true
		}
	}
	return false
}

// Calls of the figures package's display helpers. Each MustShow/Show/ShowSVG
// call delivers one image and one caption (with the numbers table), and so
// does MustExplore (a live widget, which leaves its figure shown by Show);
// ShowInteractive one HTML page.
var (
	showRe        = regexp.MustCompile(`\bfigures\.(MustShow|Show|ShowSVG|MustExplore)\(`)
	interactiveRe = regexp.MustCompile(`\bfigures\.ShowInteractive\(`)
	figFuncRe     = regexp.MustCompile(`\bfigures\.(Fig[XP]?\d\w*)\b`)
	figCallRe     = regexp.MustCompile(`\bfigures\.(?:Fig[XP]?\d\w*\(|Make\("[^"]+"\))`)
	figRefRe      = regexp.MustCompile(`\bfigures\.(?:Fig[XP]?\d\w*\b|Make\("[^"]+"\))`)
	loopRe        = regexp.MustCompile(`(?m)^\s*for\b`)
	figMakeRe     = regexp.MustCompile(`\bfigures\.Make\("([^"]+)"\)`)
	printRe       = regexp.MustCompile(`\bfmt\.Print(f|ln)?\(|\bexercises\.Check\(`)
	displayRe     = regexp.MustCompile(`\bgonbui\.Display\w*\(`)
	funcDeclRe    = regexp.MustCompile(`^func\s+(\w+)\s*[\[(]`)
	callRe        = regexp.MustCompile(`\b(\w+)\(`)
	headingRe     = regexp.MustCompile(`(?m)^(#{1,6})\s+(.+?)\s*$`)
)

// Effects says what running a piece of code shows.
type Effects struct {
	Figures     []string // figure functions ("Fig1_1EggMass1D": Fig, optional X or P, a digit …) or ids ("id:1.1"), in call order
	Shows       int      // display-helper calls (MustShow, Show, ShowSVG)
	Interactive int      // ShowInteractive calls
	Prints      bool     // writes to standard output
	Displays    int      // direct gonbui.Display… calls
	Indirect    bool     // calls a notebook function that shows figures or displays
	// Loop: the figures are shown in a loop over figure functions
	// (for _, mk := range []func() …{figures.FigA, figures.FigB}); Figures
	// then lists every figure function the cell names, called or not.
	Loop bool
}

// Funcs maps the top-level functions declared in a notebook's code cells to
// what their bodies show, so that a cell calling a helper that prints is
// expected to print.
type Funcs map[string]Effects

// Declared returns the top-level functions of every code cell.
func Declared(cells []Cell) Funcs {
	bodies := map[string]string{}
	for _, c := range cells {
		if c.Type != "code" {
			continue
		}
		_, decls := split(c.Source)
		for name, body := range decls {
			bodies[name] = body
		}
	}
	// A helper calling a printing helper prints: iterate to a fixed point.
	fs := Funcs{}
	for changed := true; changed; {
		changed = false
		for name, body := range bodies {
			e, old := scan(body, fs), fs[name]
			if e.Prints != old.Prints || e.Indirect != old.Indirect || e.Shows != old.Shows ||
				e.Interactive != old.Interactive || e.Displays != old.Displays {
				fs[name] = e
				changed = true
			}
		}
	}
	return fs
}

// CellEffects returns what running a code cell shows: its statements
// outside top-level function declarations, with calls of fs's functions.
// Shell (!) lines and comments are ignored.
func CellEffects(src string, fs Funcs) Effects {
	body, _ := split(src)
	return scan(body, fs)
}

// IsShell reports whether a cell is a shell cell (every line starting "!").
func IsShell(src string) bool {
	s := strings.TrimSpace(src)
	return strings.HasPrefix(s, "!")
}

func scan(code string, fs Funcs) Effects {
	code = stripComments(code)
	var e Effects
	e.Shows = len(showRe.FindAllString(code, -1))
	e.Interactive = len(interactiveRe.FindAllString(code, -1))
	e.Displays = len(displayRe.FindAllString(code, -1))
	e.Prints = printRe.MatchString(code)
	figs := figCallRe
	if e.Shows > 0 && loopRe.MatchString(code) {
		e.Loop = true
		figs = figRefRe
	}
	for _, m := range figs.FindAllString(code, -1) {
		if mm := figFuncRe.FindStringSubmatch(m); mm != nil {
			e.Figures = append(e.Figures, mm[1])
		} else if mm := figMakeRe.FindStringSubmatch(m); mm != nil {
			e.Figures = append(e.Figures, "id:"+mm[1])
		}
	}
	for _, m := range callRe.FindAllStringSubmatch(code, -1) {
		if f, ok := fs[m[1]]; ok {
			if f.Prints {
				e.Prints = true
			}
			if f.Shows > 0 || f.Interactive > 0 || f.Displays > 0 || f.Indirect {
				e.Indirect = true
			}
		}
	}
	return e
}

// split separates a cell's top-level function declarations (from a line
// "func name(" to the next line "}") from the rest.
func split(src string) (rest string, decls map[string]string) {
	decls = map[string]string{}
	var out, cur []string
	name := ""
	for _, line := range strings.Split(src, "\n") {
		if name == "" {
			if m := funcDeclRe.FindStringSubmatch(line); m != nil {
				name = m[1]
				cur = []string{line}
				if strings.HasSuffix(strings.TrimSpace(line), "}") && strings.Count(line, "{") == strings.Count(line, "}") {
					decls[name] = line
					name = ""
				}
				continue
			}
			out = append(out, line)
			continue
		}
		cur = append(cur, line)
		if line == "}" {
			decls[name] = strings.Join(cur, "\n")
			name = ""
		}
	}
	return strings.Join(out, "\n"), decls
}

func stripComments(code string) string {
	lines := strings.Split(code, "\n")
	for i, l := range lines {
		if j := strings.Index(l, "//"); j >= 0 && !strings.Contains(l[:j], `"`) {
			lines[i] = l[:j]
		}
		if strings.HasPrefix(strings.TrimSpace(l), "!") {
			lines[i] = ""
		}
	}
	return strings.Join(lines, "\n")
}

// Heading is a Markdown heading: level 1–6 and text.
type Heading struct {
	Level int
	Text  string
}

// Headings returns the headings of a Markdown cell.
func Headings(md string) []Heading {
	var hs []Heading
	for _, m := range headingRe.FindAllStringSubmatch(md, -1) {
		hs = append(hs, Heading{Level: len(m[1]), Text: m[2]})
	}
	return hs
}

// Anchor returns the fragment Jupyter gives a heading: its text with
// spaces replaced by hyphens (Markdown emphasis and code marks removed;
// maths keeps its dollar signs, as Jupyter and nbconvert do), with the
// parentheses percent-encoded for use in a Markdown link.
func Anchor(text string) string {
	t := strings.NewReplacer("*", "", "`", "").Replace(text)
	t = strings.ReplaceAll(strings.TrimSpace(t), " ", "-")
	// In a Markdown link target a ")" would end the link: percent-encode
	// the parentheses (browsers decode the fragment before matching ids).
	return strings.NewReplacer("(", "%28", ")", "%29").Replace(t)
}

// Shown is a figure shown by a notebook: the function (or "id:…") called,
// the notebook's name and the heading it sits under.
type Shown struct {
	Figure   string
	Notebook string
	Heading  string
}

// FiguresShown lists every figure a notebook's code cells show, each with
// the nearest heading above it.
func FiguresShown(notebook string, cells []Cell) []Shown {
	var out []Shown
	heading := ""
	for _, c := range cells {
		if c.Type == "markdown" {
			if hs := Headings(c.Source); len(hs) > 0 {
				heading = hs[len(hs)-1].Text
			}
			continue
		}
		for _, f := range CellEffects(c.Source, nil).Figures {
			out = append(out, Shown{Figure: f, Notebook: notebook, Heading: heading})
		}
	}
	return out
}
