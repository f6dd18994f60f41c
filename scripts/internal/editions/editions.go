// Package editions builds the two editions of the notebooks a teacher
// hands out:
//
//   - the instructor edition: the executed notebooks as committed,
//     notebooks/*.ipynb, with the worked solutions
//     notebooks/solutions/*-solutions.ipynb;
//   - the student edition: the same notebooks without the solutions
//     notebooks, without the links to them, and with the outputs of the
//     exercise cells (tagged "exercise" by scripts/nbbuild: the student's
//     answer and its exercises.Check) cleared. Everything else keeps the
//     outputs it was executed with.
//
// Each edition is a folder notebooks/ (unpacked at the root of a copy of
// the repository it replaces the notebooks there, so the notebooks' module
// set-up, ${GONB_DIR}/.., still finds the library) and a zip of it.
// scripts/editions writes them; scripts/booksite links the zips.
package editions

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"

	"github.com/dimredbook/book/scripts/internal/nbsrc"
)

// Tags of cells, as scripts/nbbuild writes them into cell metadata.
const (
	ExerciseTag = "exercise" // a student's answer and its check: outputs cleared
	SolutionTag = "solution" // a cell of a worked solution: never in the student edition
)

// SolutionsDir is the folder of the solutions notebooks under notebooks/.
const SolutionsDir = "solutions"

// solutionLinkRe is an exercise's link to its solution, as nbbuild writes
// it; otherLinkRe any other link to a solutions notebook, with the run time
// the contents' course guide gives after it.
var (
	solutionLinkRe = regexp.MustCompile(` — \[solution\]\(` + SolutionsDir + `/[^)]*\)`)
	otherLinkRe    = regexp.MustCompile(`(?:;\s*)?\[[^\]]*\]\(` + SolutionsDir + `/[^)]*\)(?: \([^)]*\))?`)
)

// File is one file of an edition: its path inside the edition (with
// slashes, e.g. "notebooks/01-high-dimensions.ipynb") and contents.
type File struct {
	Path string
	Data []byte
}

// Instructor returns the instructor edition of the notebooks folder nbdir:
// its notebooks and solutions notebooks as they are.
func Instructor(nbdir string) ([]File, error) {
	var out []File
	for _, pat := range []string{"*.ipynb", filepath.Join(SolutionsDir, "*.ipynb")} {
		paths, err := filepath.Glob(filepath.Join(nbdir, pat))
		if err != nil {
			return nil, err
		}
		sort.Strings(paths)
		for _, p := range paths {
			b, err := os.ReadFile(p)
			if err != nil {
				return nil, err
			}
			rel, _ := filepath.Rel(nbdir, p)
			out = append(out, File{Path: "notebooks/" + filepath.ToSlash(rel), Data: b})
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("editions: no notebooks in %s", nbdir)
	}
	return out, nil
}

// Student returns the student edition of the notebooks folder nbdir: the
// notebooks without solutions notebooks, links to solutions or outputs of
// exercise cells.
func Student(nbdir string) ([]File, error) {
	paths, err := filepath.Glob(filepath.Join(nbdir, "*.ipynb"))
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	if len(paths) == 0 {
		return nil, fmt.Errorf("editions: no notebooks in %s", nbdir)
	}
	var out []File
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		sb, err := studentNotebook(b)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		out = append(out, File{Path: "notebooks/" + filepath.Base(p), Data: sb})
	}
	return out, nil
}

// StripSolutionLinks returns a Markdown cell's source without the links to
// solutions notebooks that scripts/nbbuild adds to the exercises: the text
// as written in its part file.
func StripSolutionLinks(src string) string {
	return otherLinkRe.ReplaceAllString(solutionLinkRe.ReplaceAllString(src, ""), "")
}

// studentNotebook clears the exercise cells' outputs and removes the
// solution links (and any solution cell) of one notebook.
func studentNotebook(b []byte) ([]byte, error) {
	nb, err := nbsrc.DecodeNotebook(b)
	if err != nil {
		return nil, err
	}
	var kept []any
	for _, cm := range nbsrc.CellMaps(nb) {
		tags := nbsrc.CellTags(cm)
		if tags[SolutionTag] {
			continue
		}
		if cm["cell_type"] == "code" && tags[ExerciseTag] {
			cm["outputs"] = []any{}
			cm["execution_count"] = nil
		}
		if cm["cell_type"] == "markdown" {
			src := StripSolutionLinks(nbsrc.Text(cm["source"]))
			cm["source"] = nbsrc.Lines(src)
		}
		kept = append(kept, cm)
	}
	nb["cells"] = kept
	return nbsrc.EncodeNotebook(nb)
}

// WriteDir writes files under dir (emptied first).
func WriteDir(dir string, files []File) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Zip returns files as a zip archive with fixed modification times, so
// that the same edition gives the same bytes.
func Zip(files []File) ([]byte, error) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range files {
		h := &zip.FileHeader{Name: f.Path, Method: zip.Deflate}
		w, err := zw.CreateHeader(h)
		if err != nil {
			return nil, err
		}
		if _, err := io.Copy(w, bytes.NewReader(f.Data)); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
