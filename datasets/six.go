package datasets

import (
	"bytes"
	"strconv"

	"gonum.org/v1/gonum/mat"
)

// Six loads the prototype handwritten six of Chapter 3 (br1561_6.3.pgm,
// from the author's lawrennd/dimred repository): Y is the 64×57 image as
// stored, 64 rows (top to bottom) by 57 columns, grey values 0..255 with the
// ink dark (0) on a white (255) background. It is not inverted or padded;
// the rotated-sixes generator does that (invert, pad to 64×64).
func Six() (*Dataset, error) {
	const name = "br1561_6.3.pgm"
	b, err := readFile("six", name)
	if err != nil {
		return nil, err
	}
	Y, err := parsePGM("six/"+name, b)
	if err != nil {
		return nil, err
	}
	if r, c := Y.Dims(); r != 64 || c != 57 {
		return nil, parseErr("six/"+name, 0, "image is %d×%d, want 64 rows × 57 columns", r, c)
	}
	return &Dataset{
		Name:     "six",
		Y:        Y,
		Citation: "N. D. Lawrence, Dimensionality Reduction for Machine Learning (draft, 2012), Chapter 3; image br1561_6.3.pgm from github.com/lawrennd/dimred.",
		License:  "Distributed with the author's dimred MATLAB code (github.com/lawrennd/dimred).",
		Source:   sources("six", name),
		Details:  "Binary PGM (P5), 57 wide × 64 high, maxval 255; Y[r][c] is the grey value of row r (top first), column c. Values are 0 (849 ink pixels) or 255.",
	}, nil
}

// parsePGM parses a binary (P5) PGM with maxval < 256 into an h×w matrix.
func parsePGM(file string, b []byte) (*mat.Dense, error) {
	pos := 0
	line := func() int { return 1 + bytes.Count(b[:pos], []byte{'\n'}) }
	// token reads the next header token, skipping whitespace and # comments.
	token := func() (string, bool) {
		for pos < len(b) {
			switch c := b[pos]; {
			case c == '#':
				for pos < len(b) && b[pos] != '\n' {
					pos++
				}
			case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f':
				pos++
			default:
				start := pos
				for pos < len(b) && !bytes.ContainsRune([]byte(" \t\n\r\v\f#"), rune(b[pos])) {
					pos++
				}
				return string(b[start:pos]), true
			}
		}
		return "", false
	}
	magic, ok := token()
	if !ok || magic != "P5" {
		return nil, parseErr(file, 1, "not a binary PGM (magic %s, want \"P5\")", quote(magic))
	}
	var v [3]int
	for i, what := range []string{"width", "height", "maxval"} {
		t, ok := token()
		if !ok {
			return nil, parseErr(file, line(), "header ends before %s", what)
		}
		n, err := strconv.Atoi(t)
		if err != nil || n <= 0 || n > 1<<16 {
			return nil, parseErr(file, line(), "%s %s is not a positive integer", what, quote(t))
		}
		v[i] = n
	}
	w, h, maxval := v[0], v[1], v[2]
	if maxval > 255 {
		return nil, parseErr(file, line(), "maxval %d: only 8-bit PGMs are supported", maxval)
	}
	if w*h > maxCells {
		return nil, parseErr(file, line(), "image %d×%d too large", w, h)
	}
	if pos >= len(b) {
		return nil, parseErr(file, line(), "no pixel data")
	}
	pos++ // the single whitespace byte after maxval
	if len(b)-pos != w*h {
		return nil, parseErr(file, line(), "%d pixel bytes, want %d×%d = %d", len(b)-pos, w, h, w*h)
	}
	data := make([]float64, w*h)
	for i, c := range b[pos:] {
		if int(c) > maxval {
			return nil, parseErr(file, 0, "pixel %d (row %d, column %d) = %d exceeds maxval %d", i, i/w, i%w, c, maxval)
		}
		data[i] = float64(c)
	}
	return mat.NewDense(h, w, data), nil
}
