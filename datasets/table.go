package datasets

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// TableOptions says how ReadTable reads a delimited text table: a student's
// own data, one observation per row. The zero value reads a comma-separated
// file whose first line names the columns, with every column numeric.
type TableOptions struct {
	// Comma is the field separator. Zero means ',' for ReadTable; ReadTableFile
	// uses '\t' for files ending .tsv or .tab and ',' otherwise.
	Comma rune
	// NoHeader says the first line is data, not column names. Columns are then
	// named by their 1-based position ("1", "2", …), which is also how
	// LabelColumn and RowNameColumn refer to them.
	NoHeader bool
	// LabelColumn, if not empty, names a column holding class labels (any
	// text). Its values become Labels, numbered in order of first appearance,
	// with the texts in LabelNames.
	LabelColumn string
	// RowNameColumn, if not empty, names a column whose values become RowNames.
	RowNameColumn string
	// Missing lists extra field values read as a missing value (NaN). An
	// empty field, "NA", "NaN", "nan" and "?" always are. Methods that accept
	// missing data (PPCA's EM, GP-LVM) use them; the others reject NaN with
	// dimred.ErrNaN.
	Missing []string
}

// ReadTableFile reads a CSV or TSV file into a Dataset named after the file;
// see ReadTable.
func ReadTableFile(path string, opts TableOptions) (*Dataset, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("datasets: %w", err)
	}
	defer f.Close()
	if opts.Comma == 0 {
		switch strings.ToLower(filepath.Ext(path)) {
		case ".tsv", ".tab":
			opts.Comma = '\t'
		}
	}
	d, err := ReadTable(f, filepath.Base(path), opts)
	if err != nil {
		return nil, err
	}
	d.Source = path
	return d, nil
}

// ReadTable reads a delimited text table (RFC 4180 quoting; blank lines and
// lines starting with '#' are skipped, and so is a leading UTF-8 byte-order
// mark) into a Dataset: Y holds the numeric columns, n×p, in file order,
// ColNames their names, and the label and row-name columns (if named in
// opts) go to Labels/LabelNames and RowNames. name is used in error
// messages and as the Dataset's Name.
//
// A field that is not a number, a row with the wrong number of fields, or a
// named column that does not exist is an error wrapping ErrParse that names
// the line and the column, e.g.
//
//	datasets: malformed file: heights.csv line 7, column 3 ("weight"): "7O.2" is not a number
//
// ±Inf in a field is an error too (no method can use it); missing values are
// NaN (see TableOptions.Missing).
func ReadTable(r io.Reader, name string, opts TableOptions) (*Dataset, error) {
	// A UTF-8 byte-order mark (Excel's "CSV UTF-8" starts with one) is not
	// part of the first column's name or value.
	br := bufio.NewReader(r)
	if b, err := br.Peek(3); err == nil && string(b) == "\uFEFF" {
		br.Discard(3)
	}
	cr := csv.NewReader(br)
	if opts.Comma != 0 {
		cr.Comma = opts.Comma
	}
	cr.Comment = '#'
	cr.FieldsPerRecord = -1 // checked here, to word the error
	cr.ReuseRecord = true

	missing := map[string]bool{"": true, "NA": true, "NaN": true, "nan": true, "?": true}
	for _, m := range opts.Missing {
		missing[m] = true
	}

	var (
		header   []string
		width    int
		labelCol = -1
		nameCol  = -1
		numeric  []int // indices of the numeric columns
		vals     []float64
		d        = &Dataset{Name: name}
		labelOf  = map[string]int{}
	)
	setup := func(fields []string) error {
		width = len(fields)
		if opts.NoHeader {
			header = make([]string, width)
			for j := range header {
				header[j] = strconv.Itoa(j + 1)
			}
		} else {
			header = append([]string(nil), fields...)
			for j := range header {
				header[j] = strings.TrimSpace(header[j])
			}
		}
		find := func(col, what string) (int, error) {
			if col == "" {
				return -1, nil
			}
			for j, h := range header {
				if h == col {
					return j, nil
				}
			}
			return -1, parseErr(name, 1, "no column %s for the %s (columns: %s)", quote(col), what, strings.Join(header, ", "))
		}
		var err error
		if labelCol, err = find(opts.LabelColumn, "labels"); err != nil {
			return err
		}
		if nameCol, err = find(opts.RowNameColumn, "row names"); err != nil {
			return err
		}
		if labelCol >= 0 && labelCol == nameCol {
			return parseErr(name, 1, "column %s cannot be both labels and row names", quote(opts.LabelColumn))
		}
		for j := range header {
			if j != labelCol && j != nameCol {
				numeric = append(numeric, j)
				d.ColNames = append(d.ColNames, header[j])
			}
		}
		if len(numeric) == 0 {
			return parseErr(name, 1, "no numeric columns")
		}
		return nil
	}

	first := true
	for {
		fields, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, parseErr(name, pe.Line, "column %d: %v", pe.Column, pe.Err)
			}
			return nil, fmt.Errorf("datasets: reading %s: %w", name, err)
		}
		line, _ := cr.FieldPos(0)
		if first {
			first = false
			if err := setup(fields); err != nil {
				return nil, err
			}
			if !opts.NoHeader {
				continue
			}
		}
		if len(fields) != width {
			return nil, parseErr(name, line, "%d fields, but the first line has %d", len(fields), width)
		}
		if len(vals)+len(numeric) > maxCells {
			return nil, parseErr(name, line, "more than %d values", maxCells)
		}
		for _, j := range numeric {
			f := strings.TrimSpace(fields[j])
			if missing[f] {
				vals = append(vals, math.NaN())
				continue
			}
			v, err := strconv.ParseFloat(f, 64)
			if err != nil && !errors.Is(err, strconv.ErrRange) {
				return nil, parseErr(name, line, "column %d (%s): %s is not a number", j+1, quote(header[j]), quote(f))
			}
			if math.IsInf(v, 0) {
				return nil, parseErr(name, line, "column %d (%s): %s is infinite", j+1, quote(header[j]), quote(f))
			}
			vals = append(vals, v)
		}
		if labelCol >= 0 {
			l := strings.TrimSpace(fields[labelCol])
			k, ok := labelOf[l]
			if !ok {
				k = len(d.LabelNames)
				labelOf[l] = k
				d.LabelNames = append(d.LabelNames, l)
			}
			d.Labels = append(d.Labels, k)
		}
		if nameCol >= 0 {
			d.RowNames = append(d.RowNames, strings.TrimSpace(fields[nameCol]))
		}
	}
	if len(vals) == 0 {
		return nil, parseErr(name, 0, "no data rows")
	}
	d.Y = mat.NewDense(len(vals)/len(numeric), len(numeric), vals)
	d.Details = fmt.Sprintf("read from %s: %d rows, %d numeric columns", name, len(vals)/len(numeric), len(numeric))
	return d, nil
}

// ReadNPYFile reads a NumPy .npy file into a Dataset named after the file;
// see ReadNPY.
func ReadNPYFile(path string) (*Dataset, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("datasets: %w", err)
	}
	y, err := ReadNPY(bytes.NewReader(b), filepath.Base(path))
	if err != nil {
		return nil, err
	}
	n, p := y.Dims()
	return &Dataset{Name: filepath.Base(path), Y: y, Source: path,
		Details: fmt.Sprintf("read from %s: %d×%d", filepath.Base(path), n, p)}, nil
}

// ReadNPY reads a NumPy array in the .npy format (versions 1.0–3.0) of one
// or two dimensions into an n×p matrix (a vector becomes n×1). The element
// type may be float64, float32, a signed or unsigned integer of 1–8 bytes, or
// bool, in either byte order; C and Fortran order are both read. Anything
// else (object arrays, complex numbers, structured types, three or more
// dimensions) is an error wrapping ErrParse that says what was found. As in
// ReadTable, NaN is a missing value and ±Inf an error naming the entry.
func ReadNPY(r io.Reader, name string) (*mat.Dense, error) {
	var pre [10]byte
	if _, err := io.ReadFull(r, pre[:8]); err != nil {
		return nil, parseErr(name, 0, "too short for a .npy file")
	}
	if string(pre[:6]) != "\x93NUMPY" {
		return nil, parseErr(name, 0, "not a .npy file (no \\x93NUMPY magic)")
	}
	major := pre[6]
	var hlen int
	switch major {
	case 1:
		if _, err := io.ReadFull(r, pre[8:10]); err != nil {
			return nil, parseErr(name, 0, "truncated header")
		}
		hlen = int(pre[8]) | int(pre[9])<<8
	case 2, 3:
		var l [4]byte
		if _, err := io.ReadFull(r, l[:]); err != nil {
			return nil, parseErr(name, 0, "truncated header")
		}
		hlen = int(l[0]) | int(l[1])<<8 | int(l[2])<<16 | int(l[3])<<24
		if hlen < 0 || hlen > 1<<20 {
			return nil, parseErr(name, 0, "header length %d", hlen)
		}
	default:
		return nil, parseErr(name, 0, ".npy format version %d.%d is not supported", major, pre[7])
	}
	hdr := make([]byte, hlen)
	if _, err := io.ReadFull(r, hdr); err != nil {
		return nil, parseErr(name, 0, "truncated header")
	}
	h, err := parseNPYHeader(string(hdr))
	if err != nil {
		return nil, parseErr(name, 0, "header %s: %v", quote(strings.TrimSpace(string(hdr))), err)
	}
	n, p := 1, 1
	switch len(h.shape) {
	case 0:
	case 1:
		n = h.shape[0]
	case 2:
		n, p = h.shape[0], h.shape[1]
	default:
		return nil, parseErr(name, 0, "%d-dimensional array; only 1 or 2 dimensions make a data matrix", len(h.shape))
	}
	if n == 0 || p == 0 {
		return nil, parseErr(name, 0, "empty array (shape %v)", h.shape)
	}
	if n > maxCells/p {
		return nil, parseErr(name, 0, "shape %v has more than %d values", h.shape, maxCells)
	}
	count := n * p
	raw := make([]byte, count*h.size)
	if _, err := io.ReadFull(r, raw); err != nil {
		return nil, parseErr(name, 0, "data truncated: shape %v of %s needs %d bytes", h.shape, h.descr, len(raw))
	}
	data := make([]float64, count)
	for i := range data {
		data[i] = h.decode(raw[i*h.size : (i+1)*h.size])
	}
	if h.fortran && p > 1 {
		c := make([]float64, count)
		for j := 0; j < p; j++ {
			for i := 0; i < n; i++ {
				c[i*p+j] = data[j*n+i]
			}
		}
		data = c
	}
	for k, v := range data {
		if math.IsInf(v, 0) {
			return nil, parseErr(name, 0, "entry [%d,%d] is %v (no method can use it; NaN, a missing value, can be)", k/p, k%p, v)
		}
	}
	return mat.NewDense(n, p, data), nil
}

// npyHeader is the parsed dictionary of a .npy header:
// {'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }.
type npyHeader struct {
	descr   string
	fortran bool
	shape   []int
	size    int
	decode  func([]byte) float64
}

func parseNPYHeader(s string) (*npyHeader, error) {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "{") || !strings.HasSuffix(s, "}") {
		return nil, errors.New("not a dictionary")
	}
	body := s[1 : len(s)-1]
	h := &npyHeader{}
	seen := map[string]bool{}
	for len(strings.TrimSpace(body)) > 0 {
		body = strings.TrimSpace(body)
		key, rest, ok := npyString(body)
		if !ok {
			return nil, fmt.Errorf("bad key at %s", quote(body))
		}
		rest = strings.TrimSpace(rest)
		if !strings.HasPrefix(rest, ":") {
			return nil, fmt.Errorf("no ':' after %s", quote(key))
		}
		rest = strings.TrimSpace(rest[1:])
		switch key {
		case "descr":
			v, r2, ok := npyString(rest)
			if !ok {
				return nil, errors.New("descr is not a simple type string (structured arrays are not read)")
			}
			h.descr, rest = v, r2
		case "fortran_order":
			switch {
			case strings.HasPrefix(rest, "True"):
				h.fortran, rest = true, rest[4:]
			case strings.HasPrefix(rest, "False"):
				h.fortran, rest = false, rest[5:]
			default:
				return nil, errors.New("fortran_order is not True or False")
			}
		case "shape":
			if !strings.HasPrefix(rest, "(") {
				return nil, errors.New("shape is not a tuple")
			}
			end := strings.IndexByte(rest, ')')
			if end < 0 {
				return nil, errors.New("shape tuple not closed")
			}
			for _, f := range strings.Split(rest[1:end], ",") {
				f = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(f), "L"))
				if f == "" {
					continue
				}
				v, err := strconv.Atoi(f)
				if err != nil || v < 0 {
					return nil, fmt.Errorf("shape entry %s", quote(f))
				}
				h.shape = append(h.shape, v)
			}
			rest = rest[end+1:]
		default:
			return nil, fmt.Errorf("unknown key %s", quote(key))
		}
		seen[key] = true
		rest = strings.TrimSpace(rest)
		rest = strings.TrimPrefix(rest, ",")
		body = rest
	}
	for _, k := range []string{"descr", "fortran_order", "shape"} {
		if !seen[k] {
			return nil, fmt.Errorf("no %s", quote(k))
		}
	}
	if err := h.setDecoder(); err != nil {
		return nil, err
	}
	return h, nil
}

// npyString reads a quoted Python string literal ('…' or "…") at the start of s.
func npyString(s string) (v, rest string, ok bool) {
	if len(s) < 2 || (s[0] != '\'' && s[0] != '"') {
		return "", s, false
	}
	end := strings.IndexByte(s[1:], s[0])
	if end < 0 {
		return "", s, false
	}
	return s[1 : 1+end], s[end+2:], true
}

// setDecoder sets the element size and decoder for h.descr, a NumPy
// array-protocol type string: byte order ('<', '>', '|', '='), kind and size.
func (h *npyHeader) setDecoder() error {
	d := h.descr
	if len(d) < 3 {
		return fmt.Errorf("type %s", quote(d))
	}
	big := false
	switch d[0] {
	case '<', '|', '=': // '=' is native: little-endian on every platform Go's amd64/arm64 run
	case '>':
		big = true
	default:
		return fmt.Errorf("type %s: unknown byte order", quote(d))
	}
	kind := d[1]
	size, err := strconv.Atoi(d[2:])
	if err != nil {
		return fmt.Errorf("type %s", quote(d))
	}
	u := func(b []byte) uint64 {
		var x uint64
		for i := range b {
			k := i
			if big {
				k = len(b) - 1 - i
			}
			x |= uint64(b[k]) << (8 * i)
		}
		return x
	}
	h.size = size
	switch {
	case kind == 'f' && size == 8:
		h.decode = func(b []byte) float64 { return math.Float64frombits(u(b)) }
	case kind == 'f' && size == 4:
		h.decode = func(b []byte) float64 { return float64(math.Float32frombits(uint32(u(b)))) }
	case kind == 'i' && (size == 1 || size == 2 || size == 4 || size == 8):
		shift := 64 - 8*uint(size)
		h.decode = func(b []byte) float64 { return float64(int64(u(b)<<shift) >> shift) }
	case kind == 'u' && (size == 1 || size == 2 || size == 4 || size == 8):
		h.decode = func(b []byte) float64 { return float64(u(b)) }
	case kind == 'b' && size == 1:
		h.decode = func(b []byte) float64 {
			if b[0] != 0 {
				return 1
			}
			return 0
		}
	default:
		return fmt.Errorf("element type %s is not a real number type (float, int, uint or bool)", quote(d))
	}
	return nil
}
