package datasets

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"strconv"

	"gonum.org/v1/gonum/mat"
)

// USPS loads the USPS handwritten digits as distributed with The Elements
// of Statistical Learning: 16×16 grey images, deslanted and size
// normalised, values in [−1, 1]. split is "train" (7291×256) or "test"
// (2007×256). Labels are the digits 0–9 (LabelNames "0".."9"); pixel k of a
// row is image row k/16, column k%16.
func USPS(split string) (*Dataset, error) {
	var name string
	switch split {
	case "train", "training":
		name = "zip.train.gz"
	case "test":
		name = "zip.test.gz"
	default:
		return nil, fmt.Errorf("datasets: USPS split %q: want \"train\" or \"test\"", split)
	}
	b, err := readFile("usps", name)
	if err != nil {
		return nil, err
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, parseErr("usps/"+name, 0, "not gzip: %v", err)
	}
	const limit = 256 << 20
	// The gzip trailer's ISIZE (uncompressed size mod 2³²) sizes the buffer.
	var buf bytes.Buffer
	if len(b) >= 4 {
		if isize := int(binary.LittleEndian.Uint32(b[len(b)-4:])); isize <= limit {
			buf.Grow(isize + 1)
		}
	}
	_, err = io.Copy(&buf, io.LimitReader(zr, limit+1))
	txt := buf.Bytes()
	if err != nil {
		return nil, parseErr("usps/"+name, 0, "decompressing: %v", err)
	}
	if len(txt) > limit {
		return nil, parseErr("usps/"+name, 0, "decompressed data larger than %d bytes", limit)
	}
	Y, labels, err := parseUSPS("usps/"+name, txt)
	if err != nil {
		return nil, err
	}
	names := make([]string, 10)
	for i := range names {
		names[i] = strconv.Itoa(i)
	}
	n, _ := Y.Dims()
	return &Dataset{
		Name:       "usps",
		Y:          Y,
		Labels:     labels,
		LabelNames: names,
		Citation:   "Y. Le Cun et al. (1990). Handwritten digit recognition with a back-propagation network. NIPS 2; data as distributed with T. Hastie, R. Tibshirani and J. Friedman, The Elements of Statistical Learning.",
		License:    "Distributed with The Elements of Statistical Learning for research and teaching.",
		Source:     sources("usps", name),
		Details:    fmt.Sprintf("USPS %s split: %d images, 16×16 grey values in [−1, 1] row-major; Labels are the digits.", split, n),
	}, nil
}

// parseUSPS parses lines "digit v_1 … v_256".
func parseUSPS(file string, b []byte) (*mat.Dense, []int, error) {
	const p = 256
	rows := bytes.Count(b, []byte{'\n'}) + 1
	if rows*p > maxCells {
		rows = maxCells / p
	}
	data := make([]float64, 0, rows*p)
	labels := make([]int, 0, rows)
	line := 0
	for len(b) > 0 {
		line++
		var row []byte
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			row, b = b[:i], b[i+1:]
		} else {
			row, b = b, nil
		}
		f, pos, ok := nextField(row, 0)
		if !ok {
			continue // blank line
		}
		d, ok := fastFloat(f)
		if !ok || d != math.Trunc(d) || d < 0 || d > 9 {
			return nil, nil, parseErr(file, line, "digit %s is not 0–9", quote(string(f)))
		}
		if len(data)+p > maxCells {
			return nil, nil, parseErr(file, line, "too many rows")
		}
		k := 0
		for {
			f, pos, ok = nextField(row, pos)
			if !ok {
				break
			}
			if k == p {
				return nil, nil, parseErr(file, line, "more than %d fields, want %d (digit and %d pixels)", p+1, p+1, p)
			}
			v, ok := fastFloat(f)
			if !ok {
				return nil, nil, parseErr(file, line, "pixel %d: %s is not a number", k+1, quote(string(f)))
			}
			data = append(data, v)
			k++
		}
		if k != p {
			return nil, nil, parseErr(file, line, "%d fields, want %d (digit and %d pixels)", k+1, p+1, p)
		}
		labels = append(labels, int(d))
	}
	if len(labels) == 0 {
		return nil, nil, parseErr(file, 0, "no data")
	}
	return mat.NewDense(len(labels), p, data), labels, nil
}
