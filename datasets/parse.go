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

// pow10 holds exact powers of ten for fastFloat.
var pow10 = [...]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15}

// fastFloat parses a finite number from b. Plain decimals ("-0.6310") with
// at most 15 digits take a fast path that is exact: the digits form an
// integer m < 10¹⁵ and m/10ᵏ is one correctly rounded division, the same
// value strconv.ParseFloat returns. Anything else goes to ParseFloat.
func fastFloat(b []byte) (float64, bool) {
	i, neg := 0, false
	if i < len(b) && (b[i] == '-' || b[i] == '+') {
		neg = b[i] == '-'
		i++
	}
	var m uint64
	digits, frac, dot := 0, 0, false
	for ; i < len(b); i++ {
		c := b[i]
		switch {
		case c >= '0' && c <= '9':
			m = m*10 + uint64(c-'0')
			digits++
			if dot {
				frac++
			}
		case c == '.' && !dot:
			dot = true
		default:
			return parseFloat(string(b))
		}
	}
	if digits == 0 || digits > 15 {
		return parseFloat(string(b))
	}
	v := float64(m) / pow10[frac]
	if neg {
		v = -v
	}
	return v, true
}

// nextField returns the next whitespace-separated field of b from pos, and
// the position after it; ok is false at the end.
func nextField(b []byte, pos int) (field []byte, next int, ok bool) {
	for pos < len(b) && (b[pos] == ' ' || b[pos] == '\t' || b[pos] == '\r' || b[pos] == '\v' || b[pos] == '\f') {
		pos++
	}
	start := pos
	for pos < len(b) && b[pos] != ' ' && b[pos] != '\t' && b[pos] != '\r' && b[pos] != '\v' && b[pos] != '\f' {
		pos++
	}
	return b[start:pos], pos, pos > start
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
