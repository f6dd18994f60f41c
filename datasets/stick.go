package datasets

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// stickMissing is the value the OSU export writes for an unseen marker.
const stickMissing = -9999.99

// Stick loads the "stick man" motion capture (OSU ACCAD Open Motion Data,
// "Figure Run 1": 217 frames at 120 Hz of 41 markers), preprocessed as the
// book's demos (GPmat lvmLoadData 'stick') did:
//
//  1. drop the 7 markers with any missing value (CLAV, LTOE, RBAC, RBWT,
//     RWRA, STRN, T10), leaving 34;
//  2. subtract each frame's mean from its x, y and z coordinates separately;
//  3. order the columns [X(34) Y(34) Z(34)];
//  4. divide by 400;
//  5. keep frames 0, 4, …, 216 → Y is 55×102.
//
// Markers names the 34 markers (column k of each block is marker k), Edges
// are the skeleton's connections from connections.txt as marker-index
// pairs (the two edges to the dropped STRN marker are omitted), and Frames
// are the original 0-based frame indices of the rows.
func Stick() (*Dataset, error) {
	const zipName, connName = "run1TXT.ZIP", "connections.txt"
	b, err := readFile("stick", zipName)
	if err != nil {
		return nil, err
	}
	name, txt, err := unzipOne("stick/"+zipName, b)
	if err != nil {
		return nil, err
	}
	markers, frames, err := parseMocapText("stick/"+zipName+":"+name, txt)
	if err != nil {
		return nil, err
	}
	if len(markers) != 41 || len(frames) != 217 {
		return nil, parseErr("stick/"+zipName, 0, "%d markers × %d frames, want 41 × 217", len(markers), len(frames))
	}
	// 1. markers with any missing coordinate.
	var keep []int
	for m := range markers {
		ok := true
		for _, f := range frames {
			if f[3*m] == stickMissing || f[3*m+1] == stickMissing || f[3*m+2] == stickMissing {
				ok = false
				break
			}
		}
		if ok {
			keep = append(keep, m)
		}
	}
	k := len(keep)
	var rows []int
	for i := 0; i < len(frames); i += 4 {
		rows = append(rows, i)
	}
	Y := mat.NewDense(len(rows), 3*k, nil)
	for r, i := range rows {
		for axis := range 3 {
			mean := 0.0
			for _, m := range keep {
				mean += frames[i][3*m+axis]
			}
			mean /= float64(k)
			for c, m := range keep {
				Y.Set(r, axis*k+c, (frames[i][3*m+axis]-mean)/400)
			}
		}
	}
	kept := make([]string, k)
	index := map[string]int{}
	cols := make([]string, 3*k)
	for c, m := range keep {
		kept[c] = markers[m]
		index[markers[m]] = c
		for axis, a := range []string{"x", "y", "z"} {
			cols[axis*k+c] = markers[m] + "_" + a
		}
	}
	b, err = readFile("stick", connName)
	if err != nil {
		return nil, err
	}
	pairs, err := parseConnections("stick/"+connName, b)
	if err != nil {
		return nil, err
	}
	var edges [][2]int
	for _, p := range pairs {
		a, okA := index[p[0]]
		c, okC := index[p[1]]
		if okA && okC {
			edges = append(edges, [2]int{a, c})
		}
	}
	var dropped []string
	for m := range markers {
		if _, ok := index[markers[m]]; !ok {
			dropped = append(dropped, markers[m])
		}
	}
	return &Dataset{
		Name:     "stick",
		Y:        Y,
		ColNames: cols,
		Markers:  kept,
		Edges:    edges,
		Frames:   rows,
		Citation: "The Ohio State University Advanced Computing Center for the Arts and Design (ACCAD), Open Motion Data Project, \"Figure Run 1\" (2001).",
		License:  "CC BY-NC-SA 3.0 (OSU ACCAD Open Motion Data).",
		Source:   sources("stick", zipName, connName),
		Details: fmt.Sprintf("217 frames at 120 Hz of 41 markers; dropped the %d markers with missing values (%s); per-frame centring of x, y and z; columns [X(%d) Y(%d) Z(%d)]; /400; frames 0,4,…,216 → %d×%d.",
			len(dropped), strings.Join(dropped, ", "), k, k, k, len(rows), 3*k),
	}, nil
}

// unzipOne returns the name and contents of the single file in a zip
// archive (at most 64 MB uncompressed).
func unzipOne(file string, b []byte) (string, []byte, error) {
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return "", nil, parseErr(file, 0, "not a zip archive: %v", err)
	}
	var files []*zip.File
	for _, f := range zr.File {
		if !f.FileInfo().IsDir() {
			files = append(files, f)
		}
	}
	if len(files) != 1 {
		return "", nil, parseErr(file, 0, "%d files in the archive, want 1", len(files))
	}
	rc, err := files[0].Open()
	if err != nil {
		return "", nil, parseErr(file, 0, "opening %s: %v", files[0].Name, err)
	}
	defer rc.Close()
	const limit = 64 << 20
	txt, err := io.ReadAll(io.LimitReader(rc, limit+1))
	if err != nil {
		return "", nil, parseErr(file, 0, "reading %s: %v", files[0].Name, err)
	}
	if len(txt) > limit {
		return "", nil, parseErr(file, 0, "%s is larger than %d bytes", files[0].Name, limit)
	}
	return files[0].Name, txt, nil
}

// parseMocapText parses the OSU/Vicon text export: a header
// "Field<TAB>Time<TAB>Label:MARKER:X<TAB>…" and one line per frame with the
// frame number, the time and 3 values per marker. It returns the marker
// names and, per frame, the values (x,y,z per marker, in header order).
func parseMocapText(file string, b []byte) ([]string, [][]float64, error) {
	l := lines{b: b}
	var markers []string
	for l.next() {
		if strings.TrimSpace(l.text) == "" {
			continue
		}
		fields := strings.Split(l.text, "\t")
		if len(fields) < 5 || (len(fields)-2)%3 != 0 {
			return nil, nil, parseErr(file, l.n, "header has %d fields, want 2 + 3 per marker", len(fields))
		}
		for k := 2; k < len(fields); k += 3 {
			var name string
			for a, axis := range []string{"X", "Y", "Z"} {
				parts := strings.Split(strings.TrimSpace(fields[k+a]), ":")
				if len(parts) < 2 || parts[len(parts)-1] != axis {
					return nil, nil, parseErr(file, l.n, "header field %d: %s is not MARKER:%s", k+a+1, quote(fields[k+a]), axis)
				}
				m := parts[len(parts)-2]
				if a == 0 {
					name = m
				} else if m != name {
					return nil, nil, parseErr(file, l.n, "header field %d: marker %s, want %s", k+a+1, quote(m), quote(name))
				}
			}
			markers = append(markers, name)
		}
		break
	}
	if markers == nil {
		return nil, nil, parseErr(file, 0, "no header")
	}
	var frames [][]float64
	width := 2 + 3*len(markers)
	for l.next() {
		fields := strings.Fields(l.text)
		if len(fields) == 0 {
			continue
		}
		if len(fields) != width {
			return nil, nil, parseErr(file, l.n, "%d fields, want %d (frame, time, 3 × %d markers)", len(fields), width, len(markers))
		}
		if (len(frames)+1)*width > maxCells {
			return nil, nil, parseErr(file, l.n, "too many frames")
		}
		row := make([]float64, 3*len(markers))
		for k, f := range fields {
			v, ok := parseFloat(f)
			if !ok {
				return nil, nil, parseErr(file, l.n, "field %d: %s is not a number", k+1, quote(f))
			}
			if k >= 2 {
				row[k-2] = v
			}
		}
		frames = append(frames, row)
	}
	if len(frames) == 0 {
		return nil, nil, parseErr(file, 0, "no frames")
	}
	return markers, frames, nil
}

// parseConnections parses lines "A, B" naming two connected markers.
func parseConnections(file string, b []byte) ([][2]string, error) {
	var out [][2]string
	l := lines{b: b}
	for l.next() {
		if strings.TrimSpace(l.text) == "" {
			continue
		}
		parts := strings.Split(l.text, ",")
		if len(parts) != 2 {
			return nil, parseErr(file, l.n, "%s is not \"MARKER, MARKER\"", quote(l.text))
		}
		a, c := strings.TrimSpace(parts[0]), strings.TrimSpace(parts[1])
		if a == "" || c == "" {
			return nil, parseErr(file, l.n, "empty marker name")
		}
		if len(out) >= 1<<16 {
			return nil, parseErr(file, l.n, "too many connections")
		}
		out = append(out, [2]string{a, c})
	}
	if len(out) == 0 {
		return nil, parseErr(file, 0, "no connections")
	}
	return out, nil
}
