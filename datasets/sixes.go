package datasets

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// This file generates the rotated sixes of Chapter 3 (§3.2) and Chapter 4:
// the prototype handwritten six, inverted, padded to 64×64 and rotated
// through 0°, 1°, …, 359°, giving a 360×4096 data matrix whose points lie
// on a one-dimensional (circular) manifold in a 4096-dimensional space.
//
// The rotation is an exact port of the routine the book's Matlab toolbox
// used (Ohad Gal's rotate_image.m, MATLAB File Exchange, v0.001), including
// its half-pixel quirk in the interpolation weights. The quirk is kept on
// purpose: the book's numbers (the MAE values of Figs 3.4 and 3.7, the
// distances of Fig 3.2, the kernel values of Fig 4.6) come out only with
// it (RotateImage's doc describes the quirk; the checks are in
// sixes_test.go).

// SixSize is the side of the padded, rotated six images (p = SixSize²).
const SixSize = 64

// PadSix turns the raw six (64×57, grey 0..255, ink = 0, as Six returns
// it) into the image the rotations start from: inverted (255 − v, so ink
// is 255 and background 0) and padded with 3 zero columns on the left and
// 4 on the right, giving 64×64. It panics unless raw is 64×57.
func PadSix(raw mat.Matrix) *mat.Dense {
	r, c := raw.Dims()
	if r != SixSize || c != 57 {
		panic(fmt.Sprintf("datasets: PadSix needs the 64×57 six, got %d×%d", r, c))
	}
	out := mat.NewDense(SixSize, SixSize, nil)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			out.Set(i, j+3, 255-raw.At(i, j))
		}
	}
	return out
}

// RotateImage rotates img anticlockwise as displayed (row 0 at the top)
// through deg degrees and returns the whole ("loose") rotated image, which
// is larger than img for angles that are not multiples of 90°.
//
// It is an exact port of rotate_image.m (Ohad Gal, MATLAB File Exchange,
// v0.001), the routine behind the book's rotated sixes:
//   - multiples of 90° are exact index permutations (no interpolation);
//   - otherwise img is padded by one zero pixel on every side (W, of size
//     (r+2)×(c+2), centre mid = ((c+1)/2, (r+1)/2)), its corners are
//     rotated by R = [[cos a, sin a], [−sin a, cos a]] acting on
//     (x, y) = (column, row) − mid, and every integer point (x, y) inside
//     the rotated rectangle is filled by bilinear interpolation of W at
//     (cx, cy) = Rᵀ(x, y) + mid;
//   - the interpolation weights are the fractional parts of the centred
//     coordinates cx, cy rather than of cx + mid, cy + mid. With a
//     half-integer mid this shifts the weights by half a pixel. The quirk
//     is kept because the book's numbers depend on it.
func RotateImage(img mat.Matrix, deg float64) *mat.Dense {
	r, c := img.Dims()
	a := math.Mod(deg, 360)
	if a < 0 {
		a += 360
	}
	switch a {
	case 0:
		return mat.DenseCopyOf(img)
	case 90: // Matlab in(:, end:-1:1)'
		out := mat.NewDense(c, r, nil)
		for i := 0; i < c; i++ {
			for j := 0; j < r; j++ {
				out.Set(i, j, img.At(j, c-1-i))
			}
		}
		return out
	case 180:
		out := mat.NewDense(r, c, nil)
		for i := 0; i < r; i++ {
			for j := 0; j < c; j++ {
				out.Set(i, j, img.At(r-1-i, c-1-j))
			}
		}
		return out
	case 270: // Matlab in(end:-1:1, :)'
		out := mat.NewDense(c, r, nil)
		for i := 0; i < c; i++ {
			for j := 0; j < r; j++ {
				out.Set(i, j, img.At(r-1-j, i))
			}
		}
		return out
	}

	// W: img padded by one zero pixel on every side.
	hr, hc := r+2, c+2
	W := make([]float64, hr*hc)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			W[(i+1)*hc+j+1] = img.At(i, j)
		}
	}
	at := func(y, x int) float64 {
		if y < 0 || y >= hr || x < 0 || x >= hc {
			return 0
		}
		return W[y*hc+x]
	}
	midX, midY := float64(hc-1)/2, float64(hr-1)/2
	rad := a * math.Pi / 180
	cs, sn := math.Cos(rad), math.Sin(rad)

	// Rotated corners, in order around the rectangle.
	cx0 := [4]float64{0, 0, float64(hc - 1), float64(hc - 1)}
	cy0 := [4]float64{0, float64(hr - 1), float64(hr - 1), 0}
	var px, py [4]float64
	ymin, ymax := math.Inf(1), math.Inf(-1)
	for k := range 4 {
		x, y := cx0[k]-midX, cy0[k]-midY
		px[k] = cs*x + sn*y
		py[k] = -sn*x + cs*y
		ymin = math.Min(ymin, py[k])
		ymax = math.Max(ymax, py[k])
	}
	// The integer grid inside the rotated rectangle, row by row.
	type span struct{ y, x0, x1 int }
	var spans []span
	minX, maxX := math.MaxInt, math.MinInt
	for y := int(math.Ceil(ymin)); y <= int(math.Floor(ymax)); y++ {
		fy := float64(y)
		left, right := math.Inf(1), math.Inf(-1)
		for k := range 4 {
			x1, y1 := px[k], py[k]
			x2, y2 := px[(k+1)%4], py[(k+1)%4]
			if y1 == y2 || fy < math.Min(y1, y2) || fy > math.Max(y1, y2) {
				continue
			}
			x := x1 + (fy-y1)*(x2-x1)/(y2-y1)
			left = math.Min(left, x)
			right = math.Max(right, x)
		}
		if left > right {
			continue
		}
		s := span{y, int(math.Ceil(left)), int(math.Floor(right))}
		if s.x0 > s.x1 {
			continue
		}
		spans = append(spans, s)
		minX = min(minX, s.x0)
		maxX = max(maxX, s.x1)
	}
	minY, maxY := spans[0].y, spans[len(spans)-1].y
	out := mat.NewDense(maxY-minY+1, maxX-minX+1, nil)
	const tiny = 10 * 0x1p-52 // Matlab's 10*eps
	for _, s := range spans {
		fy := float64(s.y)
		for x := s.x0; x <= s.x1; x++ {
			fx := float64(x)
			cx := cs*fx - sn*fy
			cy := sn*fx + cs*fy
			xl := int(math.Floor(cx + midX + tiny))
			yd := int(math.Floor(cy + midY + tiny))
			dx := cx - math.Floor(cx+tiny) // the quirk: fraction of cx, not of cx+midX
			dy := cy - math.Floor(cy+tiny)
			v := at(yd, xl)*(1-dx)*(1-dy) + at(yd+1, xl)*(1-dx)*dy +
				at(yd, xl+1)*dx*(1-dy) + at(yd+1, xl+1)*dx*dy
			out.Set(s.y-minY, x-minX, v)
		}
	}
	return out
}

// CropCentre returns the central r×c part of img, starting at
// round((size − r)/2) (halves rounded away from zero, as Matlab's round)
// on each axis. It panics if img is smaller than r×c.
func CropCentre(img mat.Matrix, r, c int) *mat.Dense {
	ir, ic := img.Dims()
	if ir < r || ic < c {
		panic(fmt.Sprintf("datasets: CropCentre %d×%d from %d×%d", r, c, ir, ic))
	}
	i0 := int(math.Round(float64(ir-r) / 2))
	j0 := int(math.Round(float64(ic-c) / 2))
	return mat.DenseCopyOf(img.(*mat.Dense).Slice(i0, i0+r, j0, j0+c))
}

// RotatedImages rotates img (r×c) through each of the angles (degrees,
// anticlockwise as displayed) with RotateImage, crops the centre r×c of
// each result and returns them as the rows of a len(angles)×(r·c) matrix.
// Each image is flattened row by row (row-major; the Matlab original was
// column-major, which changes nothing for distances or PCA), so
// mat.NewDense(r, c, Y.RawRowView(i)) displays row i.
func RotatedImages(img mat.Matrix, angles []float64) *mat.Dense {
	r, c := img.Dims()
	d := mat.DenseCopyOf(img)
	Y := mat.NewDense(len(angles), r*c, nil)
	for i, a := range angles {
		rot := CropCentre(RotateImage(d, a), r, c)
		row := Y.RawRowView(i)
		for k := 0; k < r; k++ {
			copy(row[k*c:(k+1)*c], rot.RawRowView(k))
		}
	}
	return Y
}

// SixAngles returns the 360 rotation angles of the rotated sixes,
// 0, 1, …, 359 degrees.
func SixAngles() []float64 {
	a := make([]float64, 360)
	for i := range a {
		a[i] = float64(i)
	}
	return a
}

// RotatedSixes returns the rotated sixes of Chapter 3 (§3.2) and Chapter 4:
// Y is 360×4096, row i the prototype six (Six, inverted and padded to 64×64
// by PadSix) rotated anticlockwise through i degrees by RotateImage,
// cropped to the central 64×64 and flattened row by row. Values are grey
// levels in [0, 255] with the ink bright (255); Chapter 3 uses Y/255,
// Chapter 4's kernel figures the raw values. T (360×1) holds the angles in
// degrees. The generation reproduces the book's numbers (e.g. the
// feature-selection errors 0.215, 0.214, 0.203, 0.109 of Fig 3.4).
func RotatedSixes() (*Dataset, error) {
	six, err := Six()
	if err != nil {
		return nil, err
	}
	angles := SixAngles()
	T := mat.NewDense(len(angles), 1, angles)
	return &Dataset{
		Name:     "rotated_sixes",
		Y:        RotatedImages(PadSix(six.Y), angles),
		T:        T,
		Citation: six.Citation + " Rotations as in the author's generateManifoldData.m ('six'), using Ohad Gal's rotate_image.m (MATLAB File Exchange).",
		License:  six.License,
		Source:   six.Source,
		Details: "The 64×57 six inverted (255 − v), padded to 64×64 (3 zero columns left, 4 right), rotated through 0°, 1°, …, 359° " +
			"(anticlockwise as displayed) by an exact port of rotate_image.m (bilinear, with its half-pixel weight quirk; multiples of 90° exact), " +
			"centre 64×64 cropped, flattened row-major. Y is 360×4096 in [0, 255], ink bright.",
	}, nil
}
