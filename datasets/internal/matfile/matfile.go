// Package matfile reads MATLAB 5.0 MAT-files (the "level 5" format of
// MATLAB 5 to 7.2, which Octave's `save -v6`/`-v7` and SciPy's savemat also
// write): a 128-byte header followed by tagged data elements, each a
// (possibly zlib-compressed) miMATRIX holding one named variable.
//
// It reads what the author's saved fits use: numeric arrays of every class
// (double, single, int8 … uint64; logical), char arrays, cell arrays and
// struct arrays, nested to any depth, in either byte order, with
// compressed (miCOMPRESSED) and small-element (data in the tag) encodings.
// Numeric values are returned as float64 whatever their class or storage
// type (MATLAB stores doubles in the narrowest integer type that holds them
// exactly); 64-bit integers beyond 2⁵³ are rounded. Sparse arrays, function
// handles, objects and HDF5-based v7.3 files are reported as unsupported.
//
// The format is MathWorks' "MAT-File Format" (version 7.x documentation,
// chapter 1, "Level 5 MAT-File Format").
package matfile

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"unicode/utf16"
)

// ErrFormat is wrapped by every error about a malformed or unsupported
// file.
var ErrFormat = errors.New("matfile: malformed or unsupported MAT-file")

// Class is an array's MATLAB class (the mxCLASS codes of the format).
type Class int

// The array classes of the format.
const (
	Cell   Class = 1
	Struct Class = 2
	Object Class = 3
	Char   Class = 4
	Sparse Class = 5
	Double Class = 6
	Single Class = 7
	Int8   Class = 8
	Uint8  Class = 9
	Int16  Class = 10
	Uint16 Class = 11
	Int32  Class = 12
	Uint32 Class = 13
	Int64  Class = 14
	Uint64 Class = 15
)

var classNames = map[Class]string{Cell: "cell", Struct: "struct", Object: "object", Char: "char",
	Sparse: "sparse", Double: "double", Single: "single", Int8: "int8", Uint8: "uint8",
	Int16: "int16", Uint16: "uint16", Int32: "int32", Uint32: "uint32", Int64: "int64", Uint64: "uint64"}

func (c Class) String() string {
	if s, ok := classNames[c]; ok {
		return s
	}
	return fmt.Sprintf("class(%d)", int(c))
}

// IsNumeric reports whether c holds numbers (double, single or an integer
// class).
func (c Class) IsNumeric() bool { return c >= Double && c <= Uint64 }

// Array is one MATLAB array. Dims are its dimensions (at least two).
// Element k of a numeric, char, cell or struct array is column-major:
// for an r×c matrix, entry (i, j) is element i + j·r.
type Array struct {
	Name    string // variable name (top level) or "" (cell elements, struct fields)
	Class   Class
	Dims    []int
	Logical bool // numeric array flagged logical

	Real []float64 // numeric and char arrays (char: the code points)
	Imag []float64 // complex numeric arrays; nil otherwise

	Cells []*Array // cell arrays

	Fields []string            // struct arrays: field names in file order
	Elems  []map[string]*Array // struct arrays: one map per element
}

// Len returns the number of elements, the product of Dims.
func (a *Array) Len() int {
	n := 1
	for _, d := range a.Dims {
		n *= d
	}
	return n
}

// String returns the text of a char array, its rows concatenated (a 1×n
// char array is the usual MATLAB string).
func (a *Array) String() string {
	if a == nil {
		return "<nil>"
	}
	if a.Class != Char {
		return fmt.Sprintf("<%v %v>", a.Class, a.Dims)
	}
	r, c := a.rowsCols()
	var b strings.Builder
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			b.WriteRune(rune(a.Real[i+j*r]))
		}
	}
	return b.String()
}

func (a *Array) rowsCols() (r, c int) {
	r = a.Dims[0]
	c = a.Len()
	if r > 0 {
		c /= r
	}
	return r, c
}

// Field returns field name of a 1×1 struct.
func (a *Array) Field(name string) (*Array, error) {
	if a.Class != Struct || len(a.Elems) != 1 {
		return nil, fmt.Errorf("%w: %q is a %v %v, not a 1×1 struct", ErrFormat, a.Name, a.Class, a.Dims)
	}
	f, ok := a.Elems[0][name]
	if !ok {
		return nil, fmt.Errorf("%w: struct %q has no field %q (fields %v)", ErrFormat, a.Name, name, a.Fields)
	}
	return f, nil
}

// Matrix returns a real 2-D numeric array as its rows, row-major: r×c
// values, with r and c.
func (a *Array) Matrix() (data []float64, r, c int, err error) {
	if !a.Class.IsNumeric() || len(a.Dims) != 2 || a.Imag != nil {
		return nil, 0, 0, fmt.Errorf("%w: %v %v array is not a real numeric matrix", ErrFormat, a.Class, a.Dims)
	}
	r, c = a.Dims[0], a.Dims[1]
	data = make([]float64, r*c)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			data[i*c+j] = a.Real[i+j*r]
		}
	}
	return data, r, c, nil
}

// Scalar returns the value of a real 1×1 numeric array.
func (a *Array) Scalar() (float64, error) {
	if !a.Class.IsNumeric() || a.Len() != 1 || a.Imag != nil {
		return 0, fmt.Errorf("%w: %v %v array is not a real scalar", ErrFormat, a.Class, a.Dims)
	}
	return a.Real[0], nil
}

// File is a read MAT-file: its header text and its variables in file
// order.
type File struct {
	Header string // the descriptive text of the header, trailing spaces removed
	Vars   []*Array
}

// Var returns the variable called name.
func (f *File) Var(name string) (*Array, error) {
	for _, v := range f.Vars {
		if v.Name == name {
			return v, nil
		}
	}
	var names []string
	for _, v := range f.Vars {
		names = append(names, v.Name)
	}
	return nil, fmt.Errorf("%w: no variable %q (the file holds %v)", ErrFormat, name, names)
}

// Data element types (miTYPE codes).
const (
	miINT8       = 1
	miUINT8      = 2
	miINT16      = 3
	miUINT16     = 4
	miINT32      = 5
	miUINT32     = 6
	miSINGLE     = 7
	miDOUBLE     = 9
	miINT64      = 12
	miUINT64     = 13
	miMATRIX     = 14
	miCOMPRESSED = 15
	miUTF8       = 16
	miUTF16      = 17
	miUTF32      = 18
)

// maxDepth bounds the nesting of cells and structs (a corrupt file cannot
// recurse without end) and maxElems the elements one array may declare.
const (
	maxDepth = 64
	maxElems = 1 << 28
)

// Read parses a MAT-file held in b.
func Read(b []byte) (*File, error) {
	if len(b) < 128 {
		return nil, fmt.Errorf("%w: %d bytes, shorter than the 128-byte header", ErrFormat, len(b))
	}
	var order binary.ByteOrder
	switch string(b[126:128]) {
	case "IM":
		order = binary.LittleEndian
	case "MI":
		order = binary.BigEndian
	default:
		return nil, fmt.Errorf("%w: no endian indicator (bytes 126–127 are %q, want \"IM\" or \"MI\"); a v7.3 (HDF5) file or not a MAT-file", ErrFormat, b[126:128])
	}
	if v := order.Uint16(b[124:126]); v != 0x0100 {
		return nil, fmt.Errorf("%w: header version %#04x, want 0x0100", ErrFormat, v)
	}
	f := &File{Header: strings.TrimRight(string(b[:116]), " \x00")}
	r := &reader{order: order}
	rest := b[128:]
	for len(rest) > 0 {
		typ, data, next, err := r.element(rest)
		if err != nil {
			return nil, fmt.Errorf("variable %d: %w", len(f.Vars)+1, err)
		}
		rest = next
		if typ == miCOMPRESSED {
			zr, err := zlib.NewReader(bytes.NewReader(data))
			if err != nil {
				return nil, fmt.Errorf("%w: variable %d: compressed element: %v", ErrFormat, len(f.Vars)+1, err)
			}
			raw, err := io.ReadAll(zr)
			if err != nil {
				return nil, fmt.Errorf("%w: variable %d: compressed element: %v", ErrFormat, len(f.Vars)+1, err)
			}
			typ, data, _, err = r.element(raw)
			if err != nil {
				return nil, fmt.Errorf("variable %d (compressed): %w", len(f.Vars)+1, err)
			}
		}
		if typ != miMATRIX {
			return nil, fmt.Errorf("%w: variable %d: element type %d, want miMATRIX (14)", ErrFormat, len(f.Vars)+1, typ)
		}
		a, err := r.matrix(data, 0)
		if err != nil {
			return nil, fmt.Errorf("variable %d: %w", len(f.Vars)+1, err)
		}
		f.Vars = append(f.Vars, a)
	}
	return f, nil
}

type reader struct{ order binary.ByteOrder }

// element splits the data element at the start of b into its type and
// data and returns the bytes after it (past the padding to 8 bytes).
func (r *reader) element(b []byte) (typ uint32, data, rest []byte, err error) {
	if len(b) < 8 {
		return 0, nil, nil, fmt.Errorf("%w: %d bytes left, too few for a tag", ErrFormat, len(b))
	}
	w := r.order.Uint32(b[:4])
	if w>>16 != 0 {
		// Small data element: 2-byte size and type, data in the next 4
		// bytes. In a big-endian file the size is the first half-word.
		n := w >> 16
		typ = w & 0xffff
		if n > 4 {
			return 0, nil, nil, fmt.Errorf("%w: small element of %d bytes (at most 4)", ErrFormat, n)
		}
		return typ, b[4 : 4+n], b[8:], nil
	}
	typ = w
	n := uint64(r.order.Uint32(b[4:8]))
	if n > uint64(len(b)-8) {
		return 0, nil, nil, fmt.Errorf("%w: element of type %d declares %d bytes, %d remain", ErrFormat, typ, n, len(b)-8)
	}
	data = b[8 : 8+n]
	end := 8 + n
	if typ != miCOMPRESSED {
		end = 8 + (n+7)/8*8
	}
	if end > uint64(len(b)) {
		end = uint64(len(b)) // the last element's padding may be missing
	}
	return typ, data, b[end:], nil
}

// numbers decodes a numeric data element as float64.
func (r *reader) numbers(typ uint32, d []byte) ([]float64, error) {
	size := map[uint32]int{miINT8: 1, miUINT8: 1, miINT16: 2, miUINT16: 2, miINT32: 4, miUINT32: 4,
		miSINGLE: 4, miDOUBLE: 8, miINT64: 8, miUINT64: 8, miUTF8: 1, miUTF16: 2, miUTF32: 4}[typ]
	if size == 0 {
		return nil, fmt.Errorf("%w: data type %d is not numeric", ErrFormat, typ)
	}
	if len(d)%size != 0 {
		return nil, fmt.Errorf("%w: %d bytes of type %d (element size %d)", ErrFormat, len(d), typ, size)
	}
	v := make([]float64, len(d)/size)
	o := r.order
	for i := range v {
		e := d[i*size : (i+1)*size]
		switch typ {
		case miINT8:
			v[i] = float64(int8(e[0]))
		case miUINT8, miUTF8:
			v[i] = float64(e[0])
		case miINT16:
			v[i] = float64(int16(o.Uint16(e)))
		case miUINT16, miUTF16:
			v[i] = float64(o.Uint16(e))
		case miINT32:
			v[i] = float64(int32(o.Uint32(e)))
		case miUINT32, miUTF32:
			v[i] = float64(o.Uint32(e))
		case miSINGLE:
			v[i] = float64(math.Float32frombits(o.Uint32(e)))
		case miDOUBLE:
			v[i] = math.Float64frombits(o.Uint64(e))
		case miINT64:
			v[i] = float64(int64(o.Uint64(e)))
		case miUINT64:
			v[i] = float64(o.Uint64(e))
		}
	}
	return v, nil
}

// text decodes a char array's data element into code points.
func (r *reader) text(typ uint32, d []byte) ([]float64, error) {
	switch typ {
	case miUTF8:
		var v []float64
		for _, c := range string(d) {
			v = append(v, float64(c))
		}
		return v, nil
	case miUTF16:
		u := make([]uint16, len(d)/2)
		for i := range u {
			u[i] = r.order.Uint16(d[2*i:])
		}
		var v []float64
		for _, c := range utf16.Decode(u) {
			v = append(v, float64(c))
		}
		return v, nil
	}
	return r.numbers(typ, d)
}

// matrix decodes the contents of a miMATRIX element.
func (r *reader) matrix(d []byte, depth int) (*Array, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("%w: cells or structs nested deeper than %d", ErrFormat, maxDepth)
	}
	if len(d) == 0 {
		// An empty miMATRIX stands for an empty array (0×0 double).
		return &Array{Class: Double, Dims: []int{0, 0}}, nil
	}
	typ, flags, d, err := r.element(d)
	if err != nil {
		return nil, fmt.Errorf("array flags: %w", err)
	}
	if typ != miUINT32 || len(flags) != 8 {
		return nil, fmt.Errorf("%w: array flags of type %d, %d bytes (want miUINT32, 8 bytes)", ErrFormat, typ, len(flags))
	}
	fw := r.order.Uint32(flags[:4])
	a := &Array{Class: Class(fw & 0xff), Logical: fw&0x0200 != 0}
	complexFlag := fw&0x0800 != 0

	typ, dims, d, err := r.element(d)
	if err != nil {
		return nil, fmt.Errorf("dimensions: %w", err)
	}
	if typ != miINT32 || len(dims) < 8 || len(dims)%4 != 0 {
		return nil, fmt.Errorf("%w: dimensions of type %d, %d bytes (want miINT32, at least two)", ErrFormat, typ, len(dims))
	}
	n := 1
	for i := 0; i < len(dims); i += 4 {
		k := int(int32(r.order.Uint32(dims[i:])))
		if k < 0 {
			return nil, fmt.Errorf("%w: negative dimension %d", ErrFormat, k)
		}
		a.Dims = append(a.Dims, k)
		if k > 0 && n > maxElems/k {
			return nil, fmt.Errorf("%w: dimensions %v declare more than %d elements", ErrFormat, a.Dims, maxElems)
		}
		n *= k
	}
	typ, name, d, err := r.element(d)
	if err != nil {
		return nil, fmt.Errorf("array name: %w", err)
	}
	if typ != miINT8 && typ != miUINT8 && typ != miUTF8 {
		return nil, fmt.Errorf("%w: array name of type %d", ErrFormat, typ)
	}
	a.Name = string(name)

	switch {
	case a.Class.IsNumeric() || a.Class == Char:
		typ, re, rest, err := r.element(d)
		if err != nil {
			return nil, fmt.Errorf("%q real part: %w", a.Name, err)
		}
		if a.Class == Char {
			a.Real, err = r.text(typ, re)
		} else {
			a.Real, err = r.numbers(typ, re)
		}
		if err != nil {
			return nil, fmt.Errorf("%q: %w", a.Name, err)
		}
		if len(a.Real) != n {
			return nil, fmt.Errorf("%w: %q has %d values for dimensions %v", ErrFormat, a.Name, len(a.Real), a.Dims)
		}
		if complexFlag {
			typ, im, _, err := r.element(rest)
			if err != nil {
				return nil, fmt.Errorf("%q imaginary part: %w", a.Name, err)
			}
			if a.Imag, err = r.numbers(typ, im); err != nil {
				return nil, fmt.Errorf("%q imaginary part: %w", a.Name, err)
			}
			if len(a.Imag) != n {
				return nil, fmt.Errorf("%w: %q has %d imaginary values for dimensions %v", ErrFormat, a.Name, len(a.Imag), a.Dims)
			}
		}
	case a.Class == Cell:
		for k := 0; k < n; k++ {
			typ, c, rest, err := r.element(d)
			if err != nil {
				return nil, fmt.Errorf("%q cell %d: %w", a.Name, k+1, err)
			}
			if typ != miMATRIX {
				return nil, fmt.Errorf("%w: %q cell %d has element type %d", ErrFormat, a.Name, k+1, typ)
			}
			e, err := r.matrix(c, depth+1)
			if err != nil {
				return nil, fmt.Errorf("%q cell %d: %w", a.Name, k+1, err)
			}
			a.Cells = append(a.Cells, e)
			d = rest
		}
	case a.Class == Struct:
		typ, l, rest, err := r.element(d)
		if err != nil {
			return nil, fmt.Errorf("%q field-name length: %w", a.Name, err)
		}
		if typ != miINT32 || len(l) != 4 {
			return nil, fmt.Errorf("%w: %q field-name length of type %d", ErrFormat, a.Name, typ)
		}
		width := int(int32(r.order.Uint32(l)))
		typ, names, rest, err := r.element(rest)
		if err != nil {
			return nil, fmt.Errorf("%q field names: %w", a.Name, err)
		}
		if typ != miINT8 || width <= 0 || len(names)%width != 0 {
			return nil, fmt.Errorf("%w: %q field names of type %d, %d bytes for width %d", ErrFormat, a.Name, typ, len(names), width)
		}
		for i := 0; i < len(names); i += width {
			a.Fields = append(a.Fields, strings.TrimRight(string(names[i:i+width]), "\x00"))
		}
		d = rest
		for k := 0; k < n; k++ {
			m := make(map[string]*Array, len(a.Fields))
			for _, fn := range a.Fields {
				typ, c, rest, err := r.element(d)
				if err != nil {
					return nil, fmt.Errorf("%q(%d).%s: %w", a.Name, k+1, fn, err)
				}
				if typ != miMATRIX {
					return nil, fmt.Errorf("%w: %q(%d).%s has element type %d", ErrFormat, a.Name, k+1, fn, typ)
				}
				e, err := r.matrix(c, depth+1)
				if err != nil {
					return nil, fmt.Errorf("%q(%d).%s: %w", a.Name, k+1, fn, err)
				}
				m[fn] = e
				d = rest
			}
			a.Elems = append(a.Elems, m)
		}
	default:
		return nil, fmt.Errorf("%w: %q is a %v array, which this reader does not support", ErrFormat, a.Name, a.Class)
	}
	return a, nil
}
