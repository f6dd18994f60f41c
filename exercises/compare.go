package exercises

import (
	"fmt"
	"math"
	"reflect"

	"gonum.org/v1/gonum/mat"
)

// value is an answer as an r×c array, row-major; a scalar is 1×1 and a
// vector of n numbers n×1.
type value struct {
	r, c int
	data []float64
}

func asValue(x any) (value, bool) {
	switch v := x.(type) {
	case float64:
		return value{1, 1, []float64{v}}, true
	case []float64:
		return value{len(v), 1, append([]float64(nil), v...)}, true
	case mat.Vector:
		n := v.Len()
		d := make([]float64, n)
		for i := range d {
			d[i] = v.AtVec(i)
		}
		return value{n, 1, d}, true
	case mat.Matrix:
		r, c := v.Dims()
		d := make([]float64, 0, r*c)
		for i := 0; i < r; i++ {
			for j := 0; j < c; j++ {
				d = append(d, v.At(i, j))
			}
		}
		return value{r, c, d}, true
	}
	// Any other number — every Go integer type (a count may be an int64,
	// a length arithmetic a uint), float32, a named numeric type — and a
	// slice of them.
	rv := reflect.ValueOf(x)
	if f, ok := number(rv); ok {
		return value{1, 1, []float64{f}}, true
	}
	if rv.Kind() == reflect.Slice {
		d := make([]float64, rv.Len())
		for i := range d {
			f, ok := number(rv.Index(i))
			if !ok {
				return value{}, false
			}
			d[i] = f
		}
		return value{len(d), 1, d}, true
	}
	return value{}, false
}

// readAnswer is asValue for a student's answer, with a panic while
// reading it (a view of a nil matrix) returned as bad.
func readAnswer(x any) (v value, ok bool, bad any) {
	defer func() {
		if r := recover(); r != nil {
			v, ok, bad = value{}, false, r
		}
	}()
	v, ok = asValue(x)
	return v, ok, nil
}

// number returns v as a float64 when it is of an integer or floating-point
// kind.
func number(v reflect.Value) (float64, bool) {
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(v.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return float64(v.Uint()), true
	case reflect.Float32, reflect.Float64:
		return v.Float(), true
	}
	return 0, false
}

func shape(v value) string {
	switch {
	case v.r == 1 && v.c == 1:
		return "a single number"
	case v.c == 1:
		return fmt.Sprintf("%d numbers", v.r)
	}
	return fmt.Sprintf("a %d×%d matrix", v.r, v.c)
}

// compare decides whether got matches want under a, and why not.
func compare(gotAny, wantAny any, a Answer) (bool, string) {
	want, ok := asValue(wantAny)
	if !ok {
		panic(fmt.Sprintf("exercises: reference answer of type %T", wantAny))
	}
	if rv := reflect.ValueOf(gotAny); rv.Kind() == reflect.Pointer && rv.IsNil() {
		// var X *mat.Dense, never assigned: its methods would dereference nil.
		return false, fmt.Sprintf("yours is a nil %T: nothing was stored in it", gotAny)
	}
	got, ok, bad := readAnswer(gotAny)
	if bad != nil {
		// A nil matrix inside a view (X.T() of a var X *mat.Dense never
		// assigned) passes the test above and panics when read.
		return false, fmt.Sprintf("yours, a %T, could not be read (%v): is a matrix in it nil?", gotAny, bad)
	}
	if !ok {
		return false, fmt.Sprintf("a value of type %T cannot be checked: give a number (float64, int, …), a slice of numbers or a mat.Matrix", gotAny)
	}
	if got.r != want.r || got.c != want.c {
		if got.r == want.c && got.c == want.r && got.r != got.c {
			return false, fmt.Sprintf("yours is %s, the answer has the transposed shape — transposed?", shape(got))
		}
		return false, fmt.Sprintf("yours is %s, the answer is %s", shape(got), shape(want))
	}
	for k, x := range got.data {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false, fmt.Sprintf("entry %s of yours is %v", where(got, k), x)
		}
	}
	tol := a.Tol
	if tol == 0 {
		tol = 1e-6
	}
	scale := math.Max(norm(want.data), 1e-300)
	if relErr(got.data, want.data, scale) <= tol {
		return true, ""
	}
	// Column signs: the sign each column of got needs to agree with want.
	flipped := flipColumns(got, want)
	var cols []int
	for j := 0; j < got.c; j++ {
		if flipped.data[j] != got.data[j] || signOf(flipped, got, j) {
			cols = append(cols, j)
		}
	}
	if len(cols) > 0 && relErr(flipped.data, want.data, scale) <= tol {
		if a.UpToSign {
			return true, " (up to sign, which is arbitrary here)"
		}
		return false, "right up to sign: " + signText(got, cols)
	}
	// A single number is always some constant factor times the answer, so
	// the factor would be the answer itself: say only whether it is close,
	// too large or too small. (The relative error would give it away too.)
	if want.r == 1 && want.c == 1 {
		return false, scalarMiss(got.data[0], want.data[0])
	}
	// A constant factor: the least-squares s in s·got ≈ want.
	for _, cand := range []value{got, flipped} {
		if len(cand.data) == 1 {
			break
		}
		var gw, gg float64
		for k := range cand.data {
			gw += cand.data[k] * want.data[k]
			gg += cand.data[k] * cand.data[k]
		}
		if gg == 0 {
			continue
		}
		s := gw / gg
		if s == 0 {
			// want ⟂ got (a zero answer, say): "0 times yours" is no diagnosis.
			break
		}
		scaled := make([]float64, len(cand.data))
		for k := range scaled {
			scaled[k] = s * cand.data[k]
		}
		if relErr(scaled, want.data, scale) <= tol {
			return false, fmt.Sprintf("right up to a constant factor: the answer is %.6g times yours (look for n against n−1, a missing square root or a factor of 2)", s)
		}
	}
	return false, fmt.Sprintf("relative error %.2g, more than the tolerance %.0g", relErr(got.data, want.data, scale), tol)
}

// flipColumns returns got with each column's sign chosen to agree with want.
func flipColumns(got, want value) value {
	out := value{got.r, got.c, append([]float64(nil), got.data...)}
	for j := 0; j < got.c; j++ {
		var dot float64
		for i := 0; i < got.r; i++ {
			dot += got.data[i*got.c+j] * want.data[i*got.c+j]
		}
		if dot < 0 {
			for i := 0; i < got.r; i++ {
				out.data[i*got.c+j] = -out.data[i*got.c+j]
			}
		}
	}
	return out
}

// signOf reports whether column j was flipped.
func signOf(flipped, got value, j int) bool {
	for i := 0; i < got.r; i++ {
		if x := got.data[i*got.c+j]; x != 0 {
			return flipped.data[i*got.c+j] != x
		}
	}
	return false
}

func signText(got value, cols []int) string {
	if got.c == 1 {
		return "yours has the opposite sign"
	}
	s := "column"
	if len(cols) > 1 {
		s += "s"
	}
	for i, j := range cols {
		if i > 0 {
			s += ","
		}
		s += fmt.Sprintf(" %d", j+1)
	}
	return s + " of yours " + map[bool]string{true: "have", false: "has"}[len(cols) > 1] + " the opposite sign"
}

func where(v value, k int) string {
	if v.c == 1 {
		return fmt.Sprintf("%d", k+1)
	}
	return fmt.Sprintf("(%d, %d)", k/v.c+1, k%v.c+1)
}

func norm(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v * v
	}
	return math.Sqrt(s)
}

func relErr(a, b []float64, scale float64) float64 {
	var s float64
	for k := range a {
		d := a[k] - b[k]
		s += d * d
	}
	return math.Sqrt(s) / scale
}

// scalarMiss says how a wrong single number misses the answer without
// giving the answer away: close (within 1 %: n against n−1, rounding),
// too large or too small in magnitude, or of the wrong sign.
func scalarMiss(got, want float64) string {
	switch {
	case math.Abs(got-want) <= 0.01*math.Abs(want):
		return "close (within 1 %), but not within the tolerance: look for n against n−1, or rounding"
	case got*want < 0:
		return "wrong sign, and the size is not right either"
	case math.Abs(got) > math.Abs(want):
		return "too large in magnitude"
	}
	return "too small in magnitude"
}
