package linalg

import (
	"fmt"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// A nil dst is the package's panic, not a nil dereference.
func TestGramNilDst(t *testing.T) {
	msg := func() (m string) {
		defer func() { m = fmt.Sprint(recover()) }()
		Gram(nil, mat.NewDense(3, 2, []float64{1, 2, 3, 4, 5, 6}))
		return ""
	}()
	if !strings.HasPrefix(msg, "dimred: ") {
		t.Errorf("Gram(nil, Y): panic %q, want the package's message", msg)
	}
}
