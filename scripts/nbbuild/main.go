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
	"bytes"
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
	dirs, err := os.ReadDir(*src)
	if err != nil {
		fatal(err)
	}
	stale := 0
	for _, d := range dirs {
		if !d.IsDir() || !selected(d.Name(), flag.Args()) {
			continue
		}
		cells, err := nbsrc.ReadSource(filepath.Join(*src, d.Name()))
		if err != nil {
			fatal(err)
		}
		path := filepath.Join(*out, d.Name()+".ipynb")
		if *check {
			if msg := compare(path, cells); msg != "" {
				fmt.Fprintf(os.Stderr, "nbbuild: %s is stale: %s\n", path, msg)
				stale++
			}
			continue
		}
		if err := os.WriteFile(path, notebook(d.Name(), cells), 0o644); err != nil {
			fatal(err)
		}
		fmt.Printf("nbbuild: wrote %s (%d cells)\n", path, len(cells))
	}
	if stale > 0 {
		fmt.Fprintf(os.Stderr, "nbbuild: %d notebook(s) differ from notebooks/src; run scripts/run-notebooks --inplace\n", stale)
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

// lines splits a cell's source the way nbformat stores it: lines keeping
// their newlines, the last without.
func lines(s string) []string {
	ls := strings.SplitAfter(s, "\n")
	if len(ls) > 0 && ls[len(ls)-1] == "" {
		ls = ls[:len(ls)-1]
	}
	if ls == nil {
		ls = []string{}
	}
	return ls
}

func notebook(name string, cells []cell) []byte {
	var js []map[string]any
	for i, c := range cells {
		jc := map[string]any{"cell_type": c.Type, "id": fmt.Sprintf("%s-%03d", short(name), i),
			"metadata": map[string]any{}, "source": lines(c.Source)}
		if c.Type == "code" {
			jc["execution_count"] = nil
			jc["outputs"] = []any{}
		}
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
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", " ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(nb); err != nil {
		fatal(err)
	}
	return buf.Bytes()
}

func short(name string) string {
	if i := strings.IndexByte(name, '-'); i > 0 {
		return "nb" + name[:i]
	}
	return name
}

// compare reports how the notebook at path differs from cells, or "".
func compare(path string, cells []cell) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	var nb struct {
		Cells []struct {
			CellType string   `json:"cell_type"`
			Source   []string `json:"source"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(b, &nb); err != nil {
		return err.Error()
	}
	if len(nb.Cells) != len(cells) {
		return fmt.Sprintf("%d cells, sources have %d", len(nb.Cells), len(cells))
	}
	for i, c := range nb.Cells {
		if c.CellType != cells[i].Type || strings.Join(c.Source, "") != cells[i].Source {
			return fmt.Sprintf("cell %d differs", i+1)
		}
	}
	return ""
}
