package dimredtest_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/dimredbook/book/dimred"
	"github.com/dimredbook/book/dimred/dimredtest"
	"gonum.org/v1/gonum/mat"
)

// Broken is FirstColumns (example_test.go) with one deliberate defect,
// named by bug, of the kind a user's own Embedder is likely to have. It
// shows that the suite catches each: TestSuiteCatchesBrokenEmbedders runs
// the suite on every variant in a child process and asserts the named
// check fails (a failing check cannot be observed from inside the test
// that runs it).
type Broken struct {
	Q int
	// Status is set by Fit under bug "exportedState": a model's exported
	// fields are its settings, not its state.
	Status string

	bug string
	x   *mat.Dense
}

var bugCheck = map[string]string{
	"modifiesY":      "YUnmodified",       // centres Y in place
	"keepsOldFit":    "FailedRefitUnfits", // a failed Fit serves the last good one
	"noNaNCheck":     "NaN",               // NaN in, NaN out, no error
	"noSizeCheck":    "TooFewPoints",      // one point "fits"
	"runtimePanic":   "TooFewPoints",      // index out of range on one point
	"anyDstShape":    "LatentTo",          // LatentTo resizes a wrong-shaped dst
	"unseeded":       "Deterministic",     // a global random source
	"exportedState":  "FieldsUnchanged",   // Fit writes an exported field
	"silentUnfitted": "Unfitted",          // LatentTo before Fit returns nothing
	"silentNaN":      "DegenerateData",    // scales by a zero standard deviation
}

func (m *Broken) Fit(Y mat.Matrix) error {
	if m.bug != "keepsOldFit" {
		m.x = nil
	}
	n, p := Y.Dims()
	if m.Q < 1 || m.Q > p {
		panic(fmt.Sprintf("mypkg: Broken.Q = %d outside [1, p = %d]", m.Q, p))
	}
	if m.bug == "runtimePanic" {
		_ = Y.At(1, 0) // "every data set has a second row"
	}
	if m.bug != "noSizeCheck" && m.bug != "runtimePanic" && (n < 2 || n <= m.Q) {
		return fmt.Errorf("%w: Broken with Q = %d needs n > Q points, have %d", dimred.ErrTooFewPoints, m.Q, n)
	}
	if m.bug != "noNaNCheck" {
		for i := 0; i < n; i++ {
			for j := 0; j < p; j++ {
				if v := Y.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
					return fmt.Errorf("%w: Y[%d,%d] = %v", dimred.ErrNaN, i, j, v)
				}
			}
		}
	}
	if m.bug == "exportedState" {
		m.Status = "fitted"
	}
	x := mat.NewDense(n, m.Q, nil)
	for j := 0; j < m.Q; j++ {
		mu, ss := 0.0, 0.0
		for i := 0; i < n; i++ {
			mu += Y.At(i, j) / float64(n)
		}
		for i := 0; i < n; i++ {
			d := Y.At(i, j) - mu
			ss += d * d
			x.Set(i, j, d)
			if d, ok := Y.(*mat.Dense); ok && m.bug == "modifiesY" {
				d.Set(i, j, x.At(i, j))
			}
		}
		if m.bug == "silentNaN" {
			for i := 0; i < n; i++ {
				x.Set(i, j, x.At(i, j)/math.Sqrt(ss/float64(n)))
			}
		}
		if m.bug == "unseeded" {
			x.Set(0, j, x.At(0, j)+rand.Float64())
		}
	}
	m.x = x
	return nil
}

func (m *Broken) LatentTo(dst *mat.Dense) {
	if m.x == nil {
		if m.bug == "silentUnfitted" {
			return
		}
		panic("mypkg: Broken used before a successful Fit")
	}
	if dst == nil {
		panic("mypkg: Broken.LatentTo: nil dst")
	}
	r, c := m.x.Dims()
	if !dst.IsEmpty() && m.bug != "anyDstShape" {
		if dr, dc := dst.Dims(); dr != r || dc != c {
			panic(mat.ErrShape)
		}
	}
	dst.CloneFrom(m.x)
}

// TestBrokenChild runs the suite on Broken with the bug named in the
// environment; it is skipped unless TestSuiteCatchesBrokenEmbedders starts
// it.
func TestBrokenChild(t *testing.T) {
	bug, ok := os.LookupEnv("DIMREDTEST_BROKEN")
	if !ok {
		t.Skip("run by TestSuiteCatchesBrokenEmbedders")
	}
	dimredtest.Embedder(t, func() dimred.Embedder { return &Broken{Q: 2, bug: bug} },
		dimredtest.Options{Q: 2, PanicPrefix: "mypkg: "})
}

// The suite catches each deliberate defect of Broken in the check named
// for it, and passes the model without one (the control, so that a
// failure is the defect's and not the harness's). Written in a review QA
// pass to test the tester.
func TestSuiteCatchesBrokenEmbedders(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a child test process per defect")
	}
	run := func(bug string) (string, error) {
		cmd := exec.Command(os.Args[0], "-test.run=^TestBrokenChild$", "-test.v", "-test.count=1")
		cmd.Env = append(os.Environ(), "DIMREDTEST_BROKEN="+bug)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := run(""); err != nil {
		t.Fatalf("the correct model fails the suite in the child process: %v\n%s", err, out)
	}
	for bug, check := range bugCheck {
		out, err := run(bug)
		if err == nil {
			t.Errorf("bug %s: the suite passed", bug)
			continue
		}
		if !strings.Contains(out, "--- FAIL: TestBrokenChild/"+check+" ") {
			t.Errorf("bug %s: check %s did not fail; output:\n%s", bug, check, out)
		}
	}
}
