package exercises

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/dimredbook/book/datasets/dstest"
	"gonum.org/v1/gonum/mat"
)

// chapterIDs are the registered answers of the notebooks (the test.*
// answers of check_test.go excluded).
func chapterIDs() []string {
	var ids []string
	for _, id := range IDs() {
		if !strings.HasPrefix(id, "test.") && !strings.HasPrefix(id, "example.") {
			ids = append(ids, id)
		}
	}
	return ids
}

// Every registered answer can be computed, is accepted when given back,
// and a typical wrong answer — the reference off by the factor n/(n−1) of
// the other variance normaliser, or one more for a count — is refused
// with the reason the verdict promises, without the value in it.
func TestRegisteredAnswers(t *testing.T) {
	ids := chapterIDs()
	if len(ids) == 0 {
		t.Fatal("no chapter exercise registers an answer")
	}
	for _, id := range ids {
		t.Run(id, func(t *testing.T) {
			mu.Lock()
			e := registry[id]
			mu.Unlock()
			want, err := e.Want()
			dstest.Check(t, err)
			if ok, why := Verdict(id, want); !ok {
				t.Fatalf("the reference answer itself is refused: %s", why)
			}
			v, ok := asValue(want)
			if !ok {
				t.Fatalf("reference of type %T", want)
			}
			for k, x := range v.data {
				if math.IsNaN(x) || math.IsInf(x, 0) {
					t.Fatalf("reference entry %d is %v", k, x)
				}
			}
			wrong := make([]float64, len(v.data))
			integer := true
			for _, x := range v.data {
				integer = integer && x == math.Trunc(x)
			}
			for k, x := range v.data {
				if integer {
					wrong[k] = x + 1
				} else {
					wrong[k] = x * 1000 / 999
				}
			}
			var got any = wrong
			if v.c > 1 {
				got = mat.NewDense(v.r, v.c, wrong)
			}
			ok, why := Verdict(id, got)
			if ok {
				t.Fatalf("a wrong answer is accepted")
			}
			reason := "constant factor"
			switch {
			case v.r == 1 && v.c == 1 && integer:
				reason = "too large"
			case v.r == 1 && v.c == 1:
				reason = "close (within 1 %)"
			case integer:
				reason = "relative error"
			}
			if !strings.Contains(why, reason) {
				t.Errorf("wrong answer: %q, want a reason containing %q", why, reason)
			}
			if v.r == 1 && v.c == 1 && strings.Contains(why, trimFloat(v.data[0])) {
				t.Errorf("the verdict %q shows the answer", why)
			}
			if ok, why := Verdict(id, append(wrong, 0)); ok || !strings.Contains(why, "the answer is") {
				t.Errorf("a wrong shape: %v, %q", ok, why)
			}
		})
	}
}

func trimFloat(x float64) string { return fmt.Sprintf("%.3g", x) }
