package figures

import (
	"fmt"
	"reflect"
	"runtime"
	"sort"
	"strconv"
	"strings"
)

// Entry is a registered figure function.
type Entry struct {
	ID      string // as Figure.ID
	Chapter int    // book chapter; 0 for the spectral paper's figures
	Make    func() (*Figure, error)

	// long, for a figure that takes seconds to compute, draws it reporting
	// its steps to a Progress (RegisterLong); nil for the others.
	long func(*Progress) (*Figure, error)
}

var registry = map[string]Entry{}

// Register adds a figure function to the registry that scripts/render and
// the report walk. Chapter files call it from init. Registering an ID twice
// panics.
func Register(id string, chapter int, fn func() (*Figure, error)) {
	if _, dup := registry[id]; dup {
		panic("figures: figure " + id + " registered twice")
	}
	registry[id] = Entry{ID: id, Chapter: chapter, Make: fn}
}

// RegisterLong adds a figure that takes seconds to compute: fn is the
// exported figure function (what notebooks call; it shows its own progress
// line in a notebook cell), long the same computation reporting its steps
// to a Progress, which scripts/render passes (MakeProgress).
func RegisterLong(id string, chapter int, fn func() (*Figure, error), long func(*Progress) (*Figure, error)) {
	if _, dup := registry[id]; dup {
		panic("figures: figure " + id + " registered twice")
	}
	registry[id] = Entry{ID: id, Chapter: chapter, Make: fn, long: long}
}

// MakeProgress draws the figure, reporting a long computation's steps to p
// (a nil p, or a figure registered without RegisterLong, shows nothing).
func (e Entry) MakeProgress(p *Progress) (*Figure, error) {
	if e.long != nil {
		return e.long(p)
	}
	return e.Make()
}

// Long reports whether the figure was registered as taking seconds to
// compute (RegisterLong).
func (e Entry) Long() bool { return e.long != nil }

// Entries returns every registered figure in book order: chapters in
// order, within a chapter book figures before extras, by number.
func Entries() []Entry {
	out := make([]Entry, 0, len(registry))
	for _, e := range registry {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return idLess(out[i], out[j]) })
	return out
}

// Func returns the import path and name of the figure's function, e.g.
// "github.com/dimredbook/book/figures.Fig1_1EggMass1D": what the report
// links to and what notebooks call.
func (e Entry) Func() string {
	f := runtime.FuncForPC(reflect.ValueOf(e.Make).Pointer())
	if f == nil {
		return ""
	}
	return f.Name()
}

// Lookup returns the figure function registered under id.
func Lookup(id string) (Entry, bool) {
	e, ok := registry[id]
	return e, ok
}

// Make draws the figure registered under id.
func Make(id string) (*Figure, error) {
	e, ok := registry[id]
	if !ok {
		return nil, fmt.Errorf("figures: no figure %q", id)
	}
	return e.Make()
}

func idLess(a, b Entry) bool {
	if a.Chapter != b.Chapter {
		return a.Chapter < b.Chapter
	}
	ka, kb := idKey(a.ID), idKey(b.ID)
	for i := 0; i < len(ka) && i < len(kb); i++ {
		if ka[i] != kb[i] {
			return ka[i] < kb[i]
		}
	}
	return len(ka) < len(kb)
}

// idKey orders "1.10" after "1.9", extras ("X1.2") after book figures and
// paper figures ("P3") by number.
func idKey(id string) []int {
	prefix := 0
	switch {
	case strings.HasPrefix(id, "X"):
		prefix, id = 1, id[1:]
	case strings.HasPrefix(id, "P"):
		id = id[1:]
	}
	key := []int{prefix}
	for _, part := range strings.Split(id, ".") {
		v, err := strconv.Atoi(strings.TrimRight(part, "abcdefghijklmnopqrstuvwxyz"))
		if err != nil {
			v = 1 << 30
		}
		key = append(key, v)
	}
	return key
}

// FileStem returns the file name, without extension, of a rendered figure:
// "1.1" → "fig-1.01", "X4.1" → "fig-X4.01", "P3" → "fig-P03".
func FileStem(id string) string {
	prefix := ""
	if strings.HasPrefix(id, "X") || strings.HasPrefix(id, "P") {
		prefix, id = id[:1], id[1:]
	}
	parts := strings.Split(id, ".")
	last := parts[len(parts)-1]
	if n, err := strconv.Atoi(last); err == nil {
		parts[len(parts)-1] = fmt.Sprintf("%02d", n)
	}
	return "fig-" + prefix + strings.Join(parts, ".")
}

// ChapterDir returns the folder, under figures/, of a chapter's rendered
// figures: "ch01" … ; "paper" for chapter 0.
func ChapterDir(chapter int) string {
	if chapter == 0 {
		return "paper"
	}
	return fmt.Sprintf("ch%02d", chapter)
}
