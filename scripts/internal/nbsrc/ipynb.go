package nbsrc

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Text returns a notebook (.ipynb, nbformat 4) multi-line string — a cell's
// source, a stream output's text, an output's text/html — as one string.
// nbformat stores it either as one string or as a list of strings (lines
// keeping their newlines); anything else is "".
func Text(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case []string:
		return strings.Join(t, "")
	case []any:
		var b strings.Builder
		for _, s := range t {
			if s, ok := s.(string); ok {
				b.WriteString(s)
			}
		}
		return b.String()
	}
	return ""
}

// Lines splits s the way nbformat stores a multi-line string and Jupyter
// writes it: lines keeping their newlines, the last without, and an empty
// list (not null) for "". Text(Lines(s)) == s.
func Lines(s string) []string {
	ls := strings.SplitAfter(s, "\n")
	if len(ls) > 0 && ls[len(ls)-1] == "" {
		ls = ls[:len(ls)-1]
	}
	if ls == nil {
		ls = []string{}
	}
	return ls
}

// DecodeNotebook parses an .ipynb file as generic JSON, every field kept
// (whatever nbformat version or front end wrote it) and numbers as
// json.Number, so that EncodeNotebook(DecodeNotebook(b)) is b for a file
// in nbformat's layout: a tool that changes one field changes no other
// byte.
func DecodeNotebook(b []byte) (map[string]any, error) {
	var nb map[string]any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&nb); err != nil {
		return nil, err
	}
	return nb, nil
}

// EncodeNotebook writes nb in the layout Jupyter and nbconvert write:
// one-space indent, keys sorted, no HTML escaping (<, >, & stay as they
// are), a final newline.
func EncodeNotebook(nb map[string]any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", " ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(nb); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// CellMaps returns the cells of a decoded notebook, each the map nb holds
// (changing one changes nb); entries that are not objects are skipped.
func CellMaps(nb map[string]any) []map[string]any {
	cs, _ := nb["cells"].([]any)
	out := make([]map[string]any, 0, len(cs))
	for _, c := range cs {
		if m, ok := c.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

// CellTags returns the tags in a decoded cell's metadata (metadata.tags,
// where scripts/nbbuild writes a part file's "tags=…").
func CellTags(cell map[string]any) map[string]bool {
	out := map[string]bool{}
	md, _ := cell["metadata"].(map[string]any)
	tags, _ := md["tags"].([]any)
	for _, t := range tags {
		if s, ok := t.(string); ok {
			out[s] = true
		}
	}
	return out
}
