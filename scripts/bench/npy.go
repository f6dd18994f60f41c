package main

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// writeNpy writes a as a C-order little-endian float64 .npy file (NumPy
// format 1.0), the input format both sides of the benchmark read.
func writeNpy(path string, a *mat.Dense) error {
	r, c := a.Dims()
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	hdr := fmt.Sprintf("{'descr': '<f8', 'fortran_order': False, 'shape': (%d, %d), }", r, c)
	pad := 64 - (10+len(hdr)+1)%64
	hdr += strings.Repeat(" ", pad) + "\n"
	w.WriteString("\x93NUMPY\x01\x00")
	binary.Write(w, binary.LittleEndian, uint16(len(hdr)))
	w.WriteString(hdr)
	buf := make([]byte, 8*c)
	for i := 0; i < r; i++ {
		for j, v := range a.RawRowView(i) {
			binary.LittleEndian.PutUint64(buf[8*j:], math.Float64bits(v))
		}
		w.Write(buf)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

var npyShape = regexp.MustCompile(`'shape':\s*\(([^)]*)\)`)
var npyDescr = regexp.MustCompile(`'descr':\s*'([^']*)'`)

// readNpy reads a C-order little-endian float64 or int64 .npy file of one
// or two dimensions as an r×c matrix (a vector is r×1).
func readNpy(path string) (*mat.Dense, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<20)
	var magic [8]byte
	if _, err := io.ReadFull(br, magic[:]); err != nil {
		return nil, err
	}
	var hl int
	if magic[6] == 1 {
		var h uint16
		binary.Read(br, binary.LittleEndian, &h)
		hl = int(h)
	} else {
		var h uint32
		binary.Read(br, binary.LittleEndian, &h)
		hl = int(h)
	}
	hb := make([]byte, hl)
	if _, err := io.ReadFull(br, hb); err != nil {
		return nil, err
	}
	hdr := string(hb)
	if strings.Contains(hdr, "'fortran_order': True") {
		return nil, fmt.Errorf("%s: Fortran order not supported", path)
	}
	d := npyDescr.FindStringSubmatch(hdr)
	s := npyShape.FindStringSubmatch(hdr)
	if d == nil || s == nil {
		return nil, fmt.Errorf("%s: bad header %q", path, hdr)
	}
	var dims []int
	for _, t := range strings.Split(s[1], ",") {
		if t = strings.TrimSpace(t); t != "" {
			v, err := strconv.Atoi(t)
			if err != nil {
				return nil, err
			}
			dims = append(dims, v)
		}
	}
	r, c := 1, 1
	switch len(dims) {
	case 1:
		r = dims[0]
	case 2:
		r, c = dims[0], dims[1]
	default:
		return nil, fmt.Errorf("%s: shape %v", path, dims)
	}
	out := mat.NewDense(r, c, nil)
	data := out.RawMatrix().Data
	raw := make([]byte, 8*len(data))
	if _, err := io.ReadFull(br, raw); err != nil {
		return nil, err
	}
	for i := range data {
		u := binary.LittleEndian.Uint64(raw[8*i:])
		switch d[1] {
		case "<f8":
			data[i] = math.Float64frombits(u)
		case "<i8":
			data[i] = float64(int64(u))
		default:
			return nil, fmt.Errorf("%s: dtype %s", path, d[1])
		}
	}
	return out, nil
}
