package exercises

import (
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func init() {
	Register("test.scalar", Answer{Want: func() (any, error) { return 2.5, nil }})
	Register("test.zero", Answer{Want: func() (any, error) { return []float64{0, 0}, nil }})
	Register("test.vector", Answer{Want: func() (any, error) { return []float64{1, -2, 3}, nil }})
	Register("test.eig", Answer{UpToSign: true, Want: func() (any, error) {
		return mat.NewDense(3, 2, []float64{1, 0, 0, 1, 1, 1}), nil
	}})
	Register("test.matrix", Answer{Hint: "centre first", Want: func() (any, error) {
		return mat.NewDense(2, 3, []float64{1, 2, 3, 4, 5, 6}), nil
	}})
}

// The verdicts: each wrong answer names the reason and never the value.
func TestVerdict(t *testing.T) {
	for _, tc := range []struct {
		id   string
		got  any
		ok   bool
		want string // substring of the reason
	}{
		{"test.scalar", 2.5, true, ""},
		{"test.scalar", 2.5 * (1 + 1e-9), true, ""},
		{"test.scalar", 2.6, false, "too large"},
		{"test.scalar", 2.5 * 1.001, false, "n against n−1"},
		{"test.scalar", 2.5 * (1 - 1e-3), false, "close (within 1 %)"},
		{"test.scalar", 1.0, false, "too small"},
		{"test.scalar", 5.0, false, "too large"},
		{"test.scalar", -2.5, false, "opposite sign"},
		{"test.scalar", "2.5", false, "cannot be checked"},
		{"test.vector", []float64{1, -2}, false, "2 numbers, the answer is 3 numbers"},
		{"test.vector", []float64{2, -4, 6}, false, "0.5 times"},
		{"test.vector", []float64{1, -2, 3.5}, false, "relative error"},
		{"test.vector", mat.NewVecDense(3, []float64{1, -2, 3}), true, ""},
		{"test.eig", mat.NewDense(3, 2, []float64{-1, 0, 0, 1, -1, 1}), true, "up to sign"},
		{"test.matrix", mat.NewDense(3, 2, []float64{1, 4, 2, 5, 3, 6}), false, "transposed"},
		{"test.matrix", mat.NewDense(2, 3, []float64{-1, 2, 3, -4, 5, 6}), false, "column 1 of yours has the opposite sign"},
		{"test.matrix", mat.NewDense(2, 3, []float64{1, 2, 3, 4, 5, 7}), false, "hint: centre first"},
		{"test.matrix", mat.NewDense(2, 3, []float64{1, 2, 3, 4, 5, nan()}), false, "entry (2, 3) of yours is NaN"},
		{"no.such", 1.0, false, "no exercise"},
		// Found by a review QA pass: a nil *mat.Dense (declared, never
		// assigned) crashed the check with a nil-pointer dereference, and a
		// wrong answer to a zero vector was "right up to a constant factor:
		// the answer is 0 times yours".
		{"test.matrix", (*mat.Dense)(nil), false, "nil *mat.Dense"},
		{"test.vector", (*mat.VecDense)(nil), false, "nil *mat.VecDense"},
		{"test.zero", []float64{1, 0}, false, "relative error"},
		// A view of a nil matrix (X.T() of a var X *mat.Dense never
		// assigned) is not a nil pointer, and reading it panicked.
		{"test.matrix", (*mat.Dense)(nil).T(), false, "could not be read"},
	} {
		ok, why := Verdict(tc.id, tc.got)
		if ok != tc.ok || !strings.Contains(why, tc.want) {
			t.Errorf("Verdict(%s, %v) = %v, %q; want %v and a reason containing %q", tc.id, tc.got, ok, why, tc.ok, tc.want)
		}
		for _, leak := range []string{"2.5 ", "4 5 6", "times yours"} {
			if tc.id != "test.scalar" && leak == "times yours" {
				continue
			}
			if !ok && strings.Contains(why, leak) {
				t.Errorf("Verdict(%s) leaks the answer: %q", tc.id, why)
			}
		}
	}
}

func nan() float64 { var z float64; return z / z }

func init() {
	Register("test.count", Answer{Want: func() (any, error) { return 3, nil }})
	Register("test.count64", Answer{Want: func() (any, error) { return int64(3), nil }})
	Register("test.counts", Answer{Want: func() (any, error) { return []int{1, 2, 3}, nil }})
	Register("test.panics", Answer{Want: func() (any, error) {
		var m *mat.Dense
		return m.At(0, 0), nil // a bug in the exercise: nil dereference
	}})
	Register("test.badtype", Answer{Want: func() (any, error) { return "three", nil }})
}

// An integer answer of any Go integer type (and a slice of them) is a
// number: int64 from a count, uint from len arithmetic, int32 from a
// conversion. Found by review: only int, float64 and float32 were
// accepted, so a right int64 count was refused as uncheckable.
func TestVerdictIntegerTypes(t *testing.T) {
	type count int
	for _, got := range []any{3, int8(3), int16(3), int32(3), int64(3), uint(3), uint8(3), uint16(3), uint32(3), uint64(3), uintptr(3), count(3), 3.0} {
		for _, id := range []string{"test.count", "test.count64"} {
			if ok, why := Verdict(id, got); !ok {
				t.Errorf("Verdict(%s, %T(%v)) = false, %q; want true", id, got, got, why)
			}
		}
	}
	if ok, why := Verdict("test.count", int64(4)); ok || !strings.Contains(why, "too large") {
		t.Errorf("Verdict(test.count, int64(4)) = %v, %q; want false, too large", ok, why)
	}
	for _, got := range []any{[]int{1, 2, 3}, []int64{1, 2, 3}, []uint8{1, 2, 3}, []int32{1, 2, 3}, []float64{1, 2, 3}} {
		if ok, why := Verdict("test.counts", got); !ok {
			t.Errorf("Verdict(test.counts, %T%v) = false, %q; want true", got, got, why)
		}
	}
	if ok, why := Verdict("test.counts", []int64{1, 2}); ok || !strings.Contains(why, "2 numbers, the answer is 3 numbers") {
		t.Errorf("Verdict(test.counts, []int64{1, 2}) = %v, %q; want a shape message", ok, why)
	}
}

// A reference computation that panics, or returns a type that cannot be
// compared, is a fault of the exercise: every Verdict says so — the first
// and the later ones alike — and none panics. Found by review: the first
// call panicked, and sync.Once then left the reference nil, so every later
// call panicked too ("reference answer of type <nil>").
func TestVerdictBrokenReference(t *testing.T) {
	for _, id := range []string{"test.panics", "test.badtype"} {
		for call := 1; call <= 3; call++ {
			var ok bool
			var why string
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Fatalf("call %d of Verdict(%s) panicked: %v", call, id, r)
					}
				}()
				ok, why = Verdict(id, 3.0)
			}()
			if ok || !strings.Contains(why, "not in your answer") || !strings.Contains(why, "exercise "+id) {
				t.Errorf("call %d: Verdict(%s) = %v, %q; want false and a fault of the exercise, not in your answer", call, id, ok, why)
			}
		}
	}
	// The other exercises are unaffected.
	if ok, why := Verdict("test.scalar", 2.5); !ok {
		t.Errorf("after a broken exercise, Verdict(test.scalar, 2.5) = false, %q", why)
	}
}
