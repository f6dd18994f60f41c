package datasets

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"gonum.org/v1/gonum/mat"
)

// maxCells bounds the size of matrices built from files, so that a
// malformed file cannot make a parser allocate without limit.
const maxCells = 1 << 26

// parseErr returns an error wrapping ErrParse naming file and line (1-based;
// 0 for the file as a whole).
func parseErr(file string, line int, format string, args ...any) error {
	if line > 0 {
		return fmt.Errorf("%w: %s line %d: %s", ErrParse, file, line, fmt.Sprintf(format, args...))
	}
	return fmt.Errorf("%w: %s: %s", ErrParse, file, fmt.Sprintf(format, args...))
}

// lines splits b into lines (LF or CRLF), numbering from 1.
type lines struct {
	b    []byte
	n    int
	text string
}

func (l *lines) next() bool {
	if len(l.b) == 0 {
		return false
	}
	i := bytes.IndexByte(l.b, '\n')
	var line []byte
	if i < 0 {
		line, l.b = l.b, nil
	} else {
		line, l.b = l.b[:i], l.b[i+1:]
	}
	line = bytes.TrimSuffix(line, []byte{'\r'})
	l.n++
	l.text = string(line)
	return true
}

// quote shortens a field for an error message.
func quote(s string) string {
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "?")
	}
	return strconv.Quote(s)
}

// parseFloat parses a finite number.
func parseFloat(s string) (float64, bool) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, false
	}
	return v, true
}

// parseMatrix parses whitespace-separated numbers, one row per non-blank
// line. With cols > 0 every row must have cols fields; with cols == 0 the
// first row sets the width.
func parseMatrix(file string, b []byte, cols int) (*mat.Dense, error) {
	var data []float64
	rows := 0
	l := lines{b: b}
	for l.next() {
		fields := strings.Fields(l.text)
		if len(fields) == 0 {
			continue
		}
		if cols == 0 {
			cols = len(fields)
		}
		if len(fields) != cols {
			return nil, parseErr(file, l.n, "%d fields, want %d", len(fields), cols)
		}
		if len(data)+cols > maxCells {
			return nil, parseErr(file, l.n, "too many values")
		}
		for k, f := range fields {
			v, ok := parseFloat(f)
			if !ok {
				return nil, parseErr(file, l.n, "field %d: %s is not a finite number", k+1, quote(f))
			}
			data = append(data, v)
		}
		rows++
	}
	if rows == 0 {
		return nil, parseErr(file, 0, "no data")
	}
	return mat.NewDense(rows, cols, data), nil
}

// parseOneHot parses an n×k one-hot matrix (whitespace separated) into
// class indices; every row must have exactly one 1 and zeros elsewhere.
func parseOneHot(file string, b []byte, k int) ([]int, error) {
	var labels []int
	l := lines{b: b}
	for l.next() {
		fields := strings.Fields(l.text)
		if len(fields) == 0 {
			continue
		}
		if len(fields) != k {
			return nil, parseErr(file, l.n, "%d fields, want %d", len(fields), k)
		}
		if len(labels) >= maxCells {
			return nil, parseErr(file, l.n, "too many rows")
		}
		label := -1
		for j, f := range fields {
			v, ok := parseFloat(f)
			switch {
			case !ok:
				return nil, parseErr(file, l.n, "field %d: %s is not a finite number", j+1, quote(f))
			case v == 0:
			case v == 1 && label < 0:
				label = j
			case v == 1:
				return nil, parseErr(file, l.n, "more than one 1 in a one-hot row")
			default:
				return nil, parseErr(file, l.n, "field %d: %v is not 0 or 1", j+1, v)
			}
		}
		if label < 0 {
			return nil, parseErr(file, l.n, "no 1 in a one-hot row")
		}
		labels = append(labels, label)
	}
	if len(labels) == 0 {
		return nil, parseErr(file, 0, "no data")
	}
	return labels, nil
}
