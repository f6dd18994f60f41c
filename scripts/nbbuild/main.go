// Command nbbuild writes the GoNB notebooks notebooks/NN-name.ipynb from
// their sources notebooks/src/NN-name/*.nb, without outputs;
// scripts/run-notebooks --inplace then executes them and stores outputs.
//
// A source folder holds one or more part files, joined in name order so
// that several chapters' authors can add sections without touching each
// other's files. A part is a sequence of cells, each introduced by a line
//
//	-- markdown --
//	-- code --
//
// Usage: go run ./scripts/nbbuild [-src notebooks/src] [-out notebooks] [-check] [prefix ...]
//
// With prefixes (e.g. "01 03") only the notebooks whose names start so are
// built or checked.
//
// With -check nothing is written: it exits 1 naming every notebook whose
// cells differ from its sources (a notebook edited by hand, or sources
// changed without re-running the notebooks).
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/dimredbook/book/scripts/internal/nbsrc"
)

type cell = nbsrc.Cell

func main() {
	src := flag.String("src", "notebooks/src", "folder of notebook sources")
	out := flag.String("out", "notebooks", "folder of notebooks")
	check := flag.Bool("check", false, "only check that notebooks match their sources")
	flag.Parse()
	nbs, err := nbsrc.ReadAll(*src)
	if err != nil {
		fatal(err)
	}
	timings := guideTimings(*out)
	stale, rerun := 0, 0
	for i, nb := range nbs {
		// A prefix selects a notebook and its solutions notebook ("07"), or
		// the solutions notebook alone ("07-gplvm-solutions").
		if selected(nb.Name, flag.Args()) {
			cells := withNavigation(nbs, i, timings)
			writeOrCheck(nb.Name, filepath.Join(*out, nb.Name+".ipynb"), cells, *check, &stale, &rerun)
		}
		if len(nb.Solutions) == 0 || !selected(solutionsName(nb.Name), flag.Args()) {
			continue
		}
		dir := filepath.Join(*out, solutionsDir)
		if !*check {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				fatal(err)
			}
		}
		writeOrCheck(nb.Name, filepath.Join(dir, solutionsName(nb.Name)+".ipynb"), solutionsCells(nbs, i), *check, &stale, &rerun)
	}
	if stale > 0 {
		fmt.Fprintf(os.Stderr, "nbbuild: %d notebook(s) differ from notebooks/src (%d need executing)\n", stale, rerun)
		os.Exit(1)
	}
}

// selected reports whether name starts with one of prefixes (all when none).
func selected(name string, prefixes []string) bool {
	if len(prefixes) == 0 {
		return true
	}
	for _, p := range prefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "nbbuild:", err)
	os.Exit(2)
}

// notebook returns the notebook built from cells. When the notebook at
// path has the same code cells (same sources, in order), their outputs are
// kept: a change to Markdown alone needs no re-execution.
func notebook(name string, cells []cell, path string) (b []byte, kept bool) {
	old := existingCode(path)
	var code []cell
	for _, c := range cells {
		if c.Type == "code" {
			code = append(code, c)
		}
	}
	kept = len(old) == len(code) && len(code) > 0
	for i := range old {
		if !kept {
			break
		}
		kept = nbsrc.Text(old[i]["source"]) == code[i].Source
	}
	var js []map[string]any
	k := 0
	for i, c := range cells {
		jc := map[string]any{"cell_type": c.Type, "id": fmt.Sprintf("%s-%03d", short(name), i),
			"metadata": map[string]any{}, "source": nbsrc.Lines(c.Source)}
		setTags := func() {
			md, _ := jc["metadata"].(map[string]any)
			if md == nil {
				md = map[string]any{}
			}
			delete(md, "tags")
			if len(c.Tags) > 0 {
				md["tags"] = c.Tags
			}
			jc["metadata"] = md
		}
		if c.Type == "code" {
			jc["execution_count"] = nil
			jc["outputs"] = []any{}
			if kept {
				for _, key := range []string{"execution_count", "outputs", "metadata"} {
					if v, ok := old[k][key]; ok {
						jc[key] = v
					}
				}
			}
			k++
		}
		setTags()
		js = append(js, jc)
	}
	nb := map[string]any{
		"cells": js,
		"metadata": map[string]any{
			"kernelspec":    map[string]any{"display_name": "Go (gonb)", "language": "go", "name": "gonb"},
			"language_info": map[string]any{"codemirror_mode": "", "file_extension": ".go", "mimetype": "", "name": "go", "nbconvert_exporter": "", "pygments_lexer": "", "version": "go1.26"},
		},
		"nbformat":       4,
		"nbformat_minor": 5,
	}
	if kept {
		if md, ok := existingMetadata(path); ok {
			nb["metadata"] = md
		}
	}
	b, err := nbsrc.EncodeNotebook(nb)
	if err != nil {
		fatal(err)
	}
	return b, kept
}

func readNotebook(path string) map[string]any {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	nb, err := nbsrc.DecodeNotebook(b)
	if err != nil {
		return nil
	}
	return nb
}

// existingCode returns the code cells of the notebook at path, if any.
func existingCode(path string) []map[string]any {
	nb := readNotebook(path)
	var out []map[string]any
	for _, cm := range nbsrc.CellMaps(nb) {
		if cm["cell_type"] == "code" {
			out = append(out, cm)
		}
	}
	return out
}

func existingMetadata(path string) (any, bool) {
	nb := readNotebook(path)
	md, ok := nb["metadata"]
	return md, ok
}

func short(name string) string {
	if i := strings.IndexByte(name, '-'); i > 0 {
		return "nb" + name[:i]
	}
	return name
}

// compare reports how the notebook at path differs from cells, or "", and
// whether its code cells differ (then it must be executed again).
func compare(path string, cells []cell) (msg string, codeChanged bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return err.Error(), true
	}
	var nb struct {
		Cells []struct {
			CellType string   `json:"cell_type"`
			Source   []string `json:"source"`
			Metadata struct {
				Tags []string `json:"tags"`
			} `json:"metadata"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(b, &nb); err != nil {
		return err.Error(), true
	}
	var oldCode, newCode []string
	for _, c := range nb.Cells {
		if c.CellType == "code" {
			oldCode = append(oldCode, strings.Join(c.Source, ""))
		}
	}
	for _, c := range cells {
		if c.Type == "code" {
			newCode = append(newCode, c.Source)
		}
	}
	codeChanged = strings.Join(oldCode, "\x00") != strings.Join(newCode, "\x00") || len(oldCode) != len(newCode)
	if len(nb.Cells) != len(cells) {
		return fmt.Sprintf("%d cells, sources have %d", len(nb.Cells), len(cells)), codeChanged
	}
	for i, c := range nb.Cells {
		if c.CellType != cells[i].Type || strings.Join(c.Source, "") != cells[i].Source {
			return fmt.Sprintf("cell %d differs", i+1), codeChanged
		}
		if strings.Join(c.Metadata.Tags, ",") != strings.Join(cells[i].Tags, ",") {
			return fmt.Sprintf("cell %d's tags differ", i+1), codeChanged
		}
	}
	return "", false
}
