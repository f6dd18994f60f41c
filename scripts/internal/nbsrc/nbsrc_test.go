package nbsrc

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestCellEffects(t *testing.T) {
	cells := []Cell{
		{Type: "code", Source: "func report(x float64) {\n\tfmt.Printf(\"%v\\n\", x)\n}\n\nfunc quiet() int {\n\treturn 1\n}"},
		{Type: "code", Source: "func both() {\n\treport(1)\n}"},
	}
	fs := Declared(cells)
	for _, c := range []struct {
		src  string
		want Effects
	}{
		{"%%\nfigures.MustShow(figures.Fig1_1EggMass1D())\nfigures.MustShow(figures.Make(\"X2.1\"))",
			Effects{Figures: []string{"Fig1_1EggMass1D", "id:X2.1"}, Shows: 2}},
		{"%%\nfmt.Println(1)", Effects{Prints: true}},
		{"%%\n// fmt.Println(1) in a comment\nx := 1", Effects{}},
		{"%%\nboth()", Effects{Prints: true}},
		{"%%\nquiet()", Effects{}},
		{"func helper() {\n\tfmt.Println(2)\n}", Effects{}}, // a declaration alone runs nothing
		{"%%\nfor _, mk := range []func() (*figures.Figure, error){figures.FigP8A, figures.FigP9B} {\n\tf, _ := mk()\n\tfigures.Show(f)\n}",
			Effects{Figures: []string{"FigP8A", "FigP9B"}, Shows: 1, Loop: true}},
		{"%%\nfigures.MustExplore(figures.ExploreGTM())", Effects{Shows: 1}},
		{"%%\nif err := figures.ShowInteractive(page, nil); err != nil {\n\tpanic(err)\n}", Effects{Interactive: 1}},
	} {
		if got := CellEffects(c.src, fs); !reflect.DeepEqual(got, c.want) {
			t.Errorf("CellEffects(%q) = %+v, want %+v", c.src, got, c.want)
		}
	}
	if !IsShell("!*go mod edit -replace x=y") || IsShell("%%\nx := 1") {
		t.Error("IsShell")
	}
}

func TestHeadingsAnchorFiguresShown(t *testing.T) {
	cells := []Cell{
		{Type: "markdown", Source: "# Chapter 1\n\n## 1.1 The *egg*\ntext"},
		{Type: "code", Source: "%%\nfigures.MustShow(figures.Fig1_1EggMass1D())"},
		{Type: "markdown", Source: "### Distribution of mass"},
		{Type: "code", Source: "%%\nfigures.MustShow(figures.Fig1_5MassAgainstDimension())"},
	}
	got := FiguresShown("01-x", cells)
	want := []Shown{{"Fig1_1EggMass1D", "01-x", "1.1 The *egg*"}, {"Fig1_5MassAgainstDimension", "01-x", "Distribution of mass"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("FiguresShown = %+v, want %+v", got, want)
	}
	if a := Anchor("1.1 The *egg*"); a != "1.1-The-egg" {
		t.Errorf("Anchor = %q", a)
	}
}

func TestParse(t *testing.T) {
	cells, err := Parse("\n-- markdown --\n# T\n-- code --\n%%\nx := 1\n\n", "p.nb")
	if err != nil {
		t.Fatal(err)
	}
	want := []Cell{{Type: "markdown", Source: "# T"}, {Type: "code", Source: "%%\nx := 1"}}
	if !reflect.DeepEqual(cells, want) {
		t.Errorf("Parse = %+v, want %+v", cells, want)
	}
	if _, err := Parse("stray\n-- code --\nx", "p.nb"); err == nil {
		t.Error("text before the first cell marker: no error")
	}
}

// A header may carry tags; the solutions part is read apart; a header
// that is misspelt is an error rather than text of the cell before.
func TestParseTagsAndSolutions(t *testing.T) {
	cells, err := Parse("-- markdown --\n# T\n-- code tags=exercise --\n%%\nx := 1\n-- code tags=exercise,slow --\n%%\n", "p.nb")
	if err != nil {
		t.Fatal(err)
	}
	if len(cells) != 3 || cells[0].Tags != nil || !cells[1].HasTag(ExerciseTag) || !reflect.DeepEqual(cells[2].Tags, []string{"exercise", "slow"}) {
		t.Errorf("cells = %+v", cells)
	}
	if _, err := Parse("-- code --\n%%\n-- code tag=exercise --\n", "p.nb"); err == nil {
		t.Error("a misspelt header was accepted")
	}
	dir := t.TempDir()
	for name, text := range map[string]string{"10-a.nb": "-- markdown --\n# A", SolutionsPart: "-- markdown --\n## Solution 1"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	main, sol, err := ReadSourceSolutions(dir)
	if err != nil || len(main) != 1 || len(sol) != 1 || sol[0].Source != "## Solution 1" {
		t.Errorf("ReadSourceSolutions = %+v, %+v, %v", main, sol, err)
	}
}

// Text and Lines are inverse: a multi-line string as nbformat stores it
// (a list of lines keeping their newlines, or one string) and back.
func TestTextLines(t *testing.T) {
	for _, s := range []string{"", "a", "a\n", "a\nb", "a\n\nb\n", "\n"} {
		ls := Lines(s)
		if ls == nil {
			t.Errorf("Lines(%q) is nil, want a (JSON) list", s)
		}
		for i, l := range ls {
			if i < len(ls)-1 && !strings.HasSuffix(l, "\n") {
				t.Errorf("Lines(%q)[%d] = %q lost its newline", s, i, l)
			}
		}
		as := make([]any, len(ls))
		for i, l := range ls {
			as[i] = l
		}
		for _, v := range []any{s, ls, as} {
			if got := Text(v); got != s {
				t.Errorf("Text(%#v) = %q, want %q", v, got, s)
			}
		}
	}
	if got := Lines("a\nb"); len(got) != 2 || got[0] != "a\n" || got[1] != "b" {
		t.Errorf(`Lines("a\nb") = %q`, got)
	}
	if got := Text([]any{"a", 1, "b"}); got != "ab" {
		t.Errorf("Text skips non-strings: got %q", got)
	}
	if got := Text(nil); got != "" {
		t.Errorf("Text(nil) = %q", got)
	}
}

// A committed notebook decodes and encodes back to the same bytes (what
// nbcheck -normalize and the student edition rely on: they change only the
// fields they mean to), and its cells and tags read as nbbuild wrote them.
func TestNotebookRoundTrip(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("..", "..", "..", "notebooks", "*.ipynb"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no notebooks found: %v", err)
	}
	tagged := 0
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		nb, err := DecodeNotebook(b)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		out, err := EncodeNotebook(nb)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out, b) {
			t.Errorf("%s: decode and encode change the file", filepath.Base(p))
		}
		cells := CellMaps(nb)
		if len(cells) == 0 {
			t.Errorf("%s: no cells", filepath.Base(p))
		}
		for _, c := range cells {
			if CellTags(c)[ExerciseTag] {
				tagged++
			}
		}
	}
	if tagged == 0 {
		t.Error("no cell tagged exercise in any notebook")
	}
}

// A part file with CRLF line ends or a byte-order mark (as an editor on
// Windows may save it) gives the cells of the same file with LF ends: no
// stray "\r" at the end of each source line, no "text before the first
// header" error for the mark.
func TestParseCRLFAndBOM(t *testing.T) {
	lf := "-- markdown --\n# Title é\n\nText\n-- code tags=exercise --\nx := 1\n\n"
	want, err := Parse(lf, "lf.nb")
	if err != nil || len(want) != 2 {
		t.Fatalf("LF file: %v, %d cells", err, len(want))
	}
	for _, text := range []string{strings.ReplaceAll(lf, "\n", "\r\n"), "\ufeff" + lf, "\ufeff" + strings.ReplaceAll(lf, "\n", "\r\n")} {
		got, err := Parse(text, "crlf.nb")
		if err != nil {
			t.Errorf("%q: %v", text, err)
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%q: cells %q, want %q", text, got, want)
		}
	}
}

// EncodeNotebook writes U+2028 and U+2029 as Jupyter does (Python's
// json.dumps, ensure_ascii=False: the characters themselves), so a
// notebook holding them decodes and encodes back to its bytes; the text
// `\u2028` (an escaped backslash) stays escaped.
func TestEncodeNotebookLineSeparators(t *testing.T) {
	b := []byte("{\n \"cells\": [\n  {\n   \"source\": [\n    \"a\u2028b\u2029c \\\\u2028 \\\\\\\\u2029 \\u001b\\b\\f\\t\"\n   ]\n  }\n ],\n \"nbformat\": 4\n}\n")
	nb, err := DecodeNotebook(b)
	if err != nil {
		t.Fatal(err)
	}
	if got := Text(CellMaps(nb)[0]["source"]); got != "a\u2028b\u2029c \\u2028 \\\\u2029 \x1b\b\f\t" {
		t.Fatalf("decoded source %q", got)
	}
	out, err := EncodeNotebook(nb)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out, b) {
		t.Errorf("round trip:\n got %q\nwant %q", out, b)
	}
}
