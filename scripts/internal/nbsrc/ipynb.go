package nbsrc

import "strings"

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
