package matfile

import (
	"encoding/binary"
	"errors"
	"math"
	"os"
	"slices"
	"testing"
)

// The fixtures were written by SciPy's savemat (testdata/make_fixtures.py),
// once plain and once with every variable zlib-compressed (miCOMPRESSED).
// SciPy writes short names and scalars as small data elements, integers in
// their own classes, logicals as flagged uint8, strings as UTF-8 or UTF-16.
func TestFixtures(t *testing.T) {
	for _, file := range []string{"testdata/fixture_plain.mat", "testdata/fixture_compressed.mat"} {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		f, err := Read(b)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		numeric := []struct {
			name  string
			class Class
			dims  []int
			real  []float64 // column-major
		}{
			{"d", Double, []int{2, 3}, []float64{1, 4, 2, 5, 3, 6.5}},
			{"sgl", Single, []int{1, 2}, []float64{0.5, -1.25}},
			{"i8", Int8, []int{1, 2}, []float64{-128, 127}},
			{"u8", Uint8, []int{1, 2}, []float64{0, 255}},
			{"i16", Int16, []int{1, 2}, []float64{-32768, 32767}},
			{"u16", Uint16, []int{1, 2}, []float64{0, 65535}},
			{"i32", Int32, []int{1, 2}, []float64{-2147483648, 2147483647}},
			{"u32", Uint32, []int{1, 2}, []float64{0, 4294967295}},
			{"i64", Int64, []int{1, 2}, []float64{-(1 << 53), 1 << 53}},
			{"u64", Uint64, []int{1, 2}, []float64{0, 1 << 53}},
			{"b", Uint8, []int{1, 3}, []float64{1, 0, 1}},
			{"e", Double, []int{0, 0}, nil},
			{"col", Double, []int{5, 1}, []float64{0, 1, 2, 3, 4}},
		}
		for _, c := range numeric {
			a, err := f.Var(c.name)
			if err != nil {
				t.Errorf("%s: %v", file, err)
				continue
			}
			if a.Class != c.class || !slices.Equal(a.Dims, c.dims) || !slices.Equal(a.Real, c.real) || a.Imag != nil {
				t.Errorf("%s %s: %v %v %v imag %v, want %v %v %v", file, c.name, a.Class, a.Dims, a.Real, a.Imag, c.class, c.dims, c.real)
			}
		}
		if a, _ := f.Var("b"); a == nil || !a.Logical {
			t.Errorf("%s: b not flagged logical", file)
		}
		if a, _ := f.Var("d"); a != nil {
			m, r, c, err := a.Matrix()
			if err != nil || r != 2 || c != 3 || !slices.Equal(m, []float64{1, 2, 3, 4, 5, 6.5}) {
				t.Errorf("%s: d.Matrix() = %v %d×%d, %v", file, m, r, c, err)
			}
		}
		z, err := f.Var("z")
		if err != nil || !slices.Equal(z.Real, []float64{1, 0}) || !slices.Equal(z.Imag, []float64{2, -3.5}) {
			t.Errorf("%s: complex z = %+v, %v", file, z, err)
		}
		if s, err := f.Var("str"); err != nil || s.Class != Char || s.String() != "hello, mat" {
			t.Errorf("%s: str = %v, %v", file, s, err)
		}
		s, err := f.Var("s")
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if !slices.Equal(s.Fields, []string{"type", "c", "nin", "inner"}) {
			t.Errorf("%s: struct fields %v", file, s.Fields)
		}
		if ty, err := s.Field("type"); err != nil || ty.String() != "rbf" {
			t.Errorf("%s: s.type = %v, %v", file, ty, err)
		}
		if c, err := s.Field("c"); err != nil {
			t.Error(err)
		} else if m, r, k, err := c.Matrix(); err != nil || r != 3 || k != 2 || !slices.Equal(m, []float64{1.5, -2, 0.25, 3, -1, 0.5}) {
			t.Errorf("%s: s.c = %v %d×%d, %v", file, m, r, k, err)
		}
		inner, err := s.Field("inner")
		if err != nil {
			t.Fatal(err)
		}
		if beta, err := inner.Field("beta"); err != nil {
			t.Error(err)
		} else if v, err := beta.Scalar(); err != nil || v != 47.25 {
			t.Errorf("%s: s.inner.beta = %v, %v", file, v, err)
		}
		if tag, err := inner.Field("tag"); err != nil || tag.String() != "ab" {
			t.Errorf("%s: s.inner.tag = %v, %v", file, tag, err)
		}
		if _, err := s.Field("nope"); !errors.Is(err, ErrFormat) {
			t.Errorf("%s: missing field: %v", file, err)
		}
		cel, err := f.Var("cel")
		if err != nil || cel.Class != Cell || len(cel.Cells) != 3 {
			t.Fatalf("%s: cel = %+v, %v", file, cel, err)
		}
		if !slices.Equal(cel.Cells[0].Real, []float64{1, 2}) || cel.Cells[1].String() != "xyz" ||
			cel.Cells[2].Class != Int16 || !slices.Equal(cel.Cells[2].Real, []float64{7}) {
			t.Errorf("%s: cell contents %v %v %v", file, cel.Cells[0].Real, cel.Cells[1], cel.Cells[2].Real)
		}
		sarr, err := f.Var("sarr")
		if err != nil || sarr.Class != Struct || !slices.Equal(sarr.Dims, []int{1, 2}) || len(sarr.Elems) != 2 {
			t.Fatalf("%s: sarr = %+v, %v", file, sarr, err)
		}
		if !slices.Equal(sarr.Elems[1]["a"].Real, []float64{2, 3}) || sarr.Elems[1]["b"].String() != "qq" || sarr.Elems[0]["b"].String() != "p" {
			t.Errorf("%s: sarr(2).a = %v, sarr(2).b = %v", file, sarr.Elems[1]["a"].Real, sarr.Elems[1]["b"])
		}
		if _, err := sarr.Field("a"); !errors.Is(err, ErrFormat) {
			t.Errorf("%s: Field on a 1×2 struct array: %v", file, err)
		}
		if _, err := f.Var("missing"); !errors.Is(err, ErrFormat) {
			t.Errorf("%s: missing variable: %v", file, err)
		}
	}
}

// builder writes hand-made MAT-files in either byte order.
type builder struct {
	o binary.ByteOrder
}

func (b *builder) u32(v ...uint32) []byte {
	out := make([]byte, 4*len(v))
	for i, x := range v {
		b.o.PutUint32(out[4*i:], x)
	}
	return out
}

// elem is a data element with a full tag, padded to 8 bytes.
func (b *builder) elem(typ uint32, data []byte) []byte {
	out := append(b.u32(typ, uint32(len(data))), data...)
	for len(out)%8 != 0 {
		out = append(out, 0)
	}
	return out
}

// small is a small data element (at most 4 bytes of data in the tag).
func (b *builder) small(typ uint32, data []byte) []byte {
	out := b.u32(uint32(len(data))<<16 | typ)
	return append(out, append(data, make([]byte, 4-len(data))...)...)
}

func (b *builder) file(vars ...[]byte) []byte {
	h := make([]byte, 128)
	copy(h, "MATLAB 5.0 MAT-file, hand-made")
	for i := 30; i < 116; i++ {
		h[i] = ' '
	}
	b.o.PutUint16(h[124:], 0x0100)
	b.o.PutUint16(h[126:], 'M'<<8|'I')
	out := h
	for _, v := range vars {
		out = append(out, v...)
	}
	return out
}

// doubleVar is a miMATRIX of class double, name in a small element and
// values stored as miDOUBLE.
func (b *builder) doubleVar(name string, r, c int, v []float64) []byte {
	var body []byte
	body = append(body, b.elem(miUINT32, b.u32(uint32(Double), 0))...)
	body = append(body, b.elem(miINT32, b.u32(uint32(r), uint32(c)))...)
	body = append(body, b.small(miINT8, []byte(name))...)
	d := make([]byte, 8*len(v))
	for i, x := range v {
		b.o.PutUint64(d[8*i:], math.Float64bits(x))
	}
	body = append(body, b.elem(miDOUBLE, d)...)
	return b.elem(miMATRIX, body)
}

// Hand-made files: both byte orders, and the malformed inputs a reader
// must reject with ErrFormat rather than panic.
func TestHandMade(t *testing.T) {
	for _, o := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
		b := &builder{o: o}
		f, err := Read(b.file(b.doubleVar("x", 1, 2, []float64{2.5, -1}), b.doubleVar("yz", 1, 1, []float64{3})))
		if err != nil {
			t.Fatalf("%v: %v", o, err)
		}
		if len(f.Vars) != 2 || f.Vars[0].Name != "x" || !slices.Equal(f.Vars[0].Real, []float64{2.5, -1}) ||
			f.Vars[1].Name != "yz" || f.Vars[1].Real[0] != 3 || f.Header != "MATLAB 5.0 MAT-file, hand-made" {
			t.Errorf("%v: %+v %+v header %q", o, f.Vars[0], f.Vars[1], f.Header)
		}
	}
	b := &builder{o: binary.LittleEndian}
	good := b.file(b.doubleVar("x", 1, 2, []float64{2.5, -1}))
	bad := map[string][]byte{
		"short header":    good[:100],
		"no endian":       append(append([]byte{}, good[:126]...), append([]byte("XX"), good[128:]...)...),
		"truncated data":  good[:len(good)-12],
		"truncated tag":   good[:132],
		"not a matrix":    b.file(b.elem(miDOUBLE, make([]byte, 8))),
		"too few values":  b.file(b.doubleVar("x", 1, 3, []float64{1, 2})),
		"bad compression": b.file(b.elem(miCOMPRESSED, []byte("not zlib"))),
		"sparse": b.file(b.elem(miMATRIX, append(append(b.elem(miUINT32, b.u32(uint32(Sparse), 0)),
			b.elem(miINT32, b.u32(1, 1))...), b.small(miINT8, []byte("s"))...))),
	}
	for name, in := range bad {
		if _, err := Read(in); !errors.Is(err, ErrFormat) {
			t.Errorf("%s: err = %v, want ErrFormat", name, err)
		}
	}
}
