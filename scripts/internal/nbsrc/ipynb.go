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
// are), U+2028 and U+2029 as themselves (Python's json.dumps with
// ensure_ascii=False writes them so; encoding/json escapes them always), a
// final newline.
func EncodeNotebook(nb map[string]any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", " ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(nb); err != nil {
		return nil, err
	}
	return unescapeSeparators(buf.Bytes()), nil
}

// unescapeSeparators replaces encoding/json's escapes \u2028 and \u2029 in
// b by the characters, leaving an escaped backslash followed by "u2028"
// (\\u2028, the text \u2028) as it is.
func unescapeSeparators(b []byte) []byte {
	if !bytes.Contains(b, []byte(`\u202`)) {
		return b
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' || i+1 >= len(b) {
			out = append(out, b[i])
			continue
		}
		if b[i+1] == 'u' && i+6 <= len(b) {
			switch string(b[i+2 : i+6]) {
			case "2028":
				out = append(out, "\u2028"...)
				i += 5
				continue
			case "2029":
				out = append(out, "\u2029"...)
				i += 5
				continue
			}
		}
		out = append(out, b[i], b[i+1]) // an escape: its second byte is not a new one
		i++
	}
	return out
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
