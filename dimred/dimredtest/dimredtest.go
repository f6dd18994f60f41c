// Package dimredtest is the conformance suite of dimred's Embedder and
// Projector contract, exported so that any implementation — the package's
// own methods or a user's — can be held to the same checks, as gonum's
// blas/testblas and graph/testgraph hold BLAS and graph implementations and
// scikit-learn's check_estimator holds estimators.
//
// Embedder runs every check of the Embedder contract on models made by a
// constructor; Projector adds the checks of ProjectTo. Each check is a
// subtest named after it (YUnmodified, FieldsUnchanged, TooLargeQ, ...), so
// one failing check can be rerun with go test -run. The contract is the one
// written in the dimred package documentation:
//
//   - Fit never modifies Y, nor any exported field of the model (a user
//     Kernel keeps its hyperparameters; a user Src stays the same source);
//   - LatentTo resizes an empty dst to n×q and panics on another shape;
//   - use of an unfitted model, and of a model whose last Fit failed,
//     panics with the package's message;
//   - a nil Src means a fixed seed: two fits, and two fits of one model,
//     are bit-identical, and so are two fits with equal user sources;
//   - refitting to data of another shape gives what a fresh model gives;
//   - NaN or ±Inf in Y is an error wrapping dimred.ErrNaN naming Y[i,j];
//     n < 2 and a latent dimension larger than n are errors wrapping
//     dimred.ErrTooFewPoints; a zero Q and an impossible setting (a NaN
//     float64 field, a negative int field) panic;
//   - finite data whose Gram or covariance matrix overflows is
//     dimred.ErrOverflow or a finite result; degenerate data (identical
//     rows, duplicates, ties, rank one, no columns, few points) ends in an
//     error wrapping a sentinel, a package panic or a finite fit, never a
//     runtime panic or a silent NaN;
//   - every …To extractor follows the one dst rule;
//   - a model with FitContext (dimred.ContextFitter) returns an error
//     wrapping context.Canceled (context.DeadlineExceeded) for a cancelled
//     (expired) context, none of dimred's sentinels, and is left unfitted;
//     its progress reports are monotone within each phase with done ≤
//     total, and watching them changes nothing;
//   - ProjectTo of the training rows gives LatentTo's positions, also when
//     the spectrum is near-singular (collinear points, q above the rank);
//     NaN in new data panics naming the entry.
//
// The checks set fields by reflection where they must: the latent
// dimension is the int field Q, a source the rand.Source field Src. A model
// without them skips the checks that need them.
//
// # Testing your own Embedder
//
// A method written in another package joins the contract with one test:
//
//	type FirstColumns struct {
//		Q int // q, latent dimension
//		x *mat.Dense
//	}
//
//	func (m *FirstColumns) Fit(Y mat.Matrix) error { ... }
//	func (m *FirstColumns) LatentTo(dst *mat.Dense) { ... }
//
//	func TestFirstColumnsConformance(t *testing.T) {
//		dimredtest.Embedder(t, func() dimred.Embedder { return &FirstColumns{Q: 2} },
//			dimredtest.Options{Q: 2, PanicPrefix: "mypkg: "})
//	}
//
// example_test.go in this package holds that model in full; it passes
// every check.
package dimredtest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dimredbook/book/dimred"
	"github.com/dimredbook/book/dimred/progress"
	"gonum.org/v1/gonum/mat"
)

// Options describes the model under test.
type Options struct {
	// Q is the latent dimension the model's constructor sets (the number
	// of columns LatentTo gives). Required.
	Q int
	// ProjTol is the largest |ProjectTo(training rows) − LatentTo| allowed,
	// relative to max |LatentTo| (Projector only). Zero means 1e-9.
	ProjTol float64
	// PanicPrefix starts every panic message of the model; empty means
	// "dimred: ".
	PanicPrefix string
	// ZeroQDefault: a zero Q selects a default (dimred.BayesianPCA, whose
	// Q is an upper bound) instead of panicking.
	ZeroQDefault bool
	// ProjectMissing: ProjectTo treats NaN as a missing entry and returns
	// finite positions (dimred.PPCA) instead of panicking.
	ProjectMissing bool
	// Timeout bounds each Fit on hostile data; zero means one minute.
	Timeout time.Duration
	// QBoundedByP: Q counts kept features and is bounded by the number of
	// columns p, not of points (dimred.FeatureSelection keeps Q of the p
	// coordinates whatever n is; the book's Fig 3.4 keeps up to 1000 of
	// 3136 pixels of 360 images). TooLargeQ then expects Q = 5 on 4×10
	// data to succeed, and Q = 11 to panic.
	QBoundedByP bool
	// NoCollinearProjection skips ProjectTrainingCollinear, for a method
	// whose ProjectTo optimises each new point against the fitted
	// embedding (dimred.TSNE): on rank-one data its embedding of the line
	// is a zigzag whose shape is set by rounding (the start's second axis
	// is noise), and a training row's own optimum need not be its fitted
	// position (0.03 to 0.8 relative between the pure-Go and OpenBLAS
	// builds). ProjectTraining on ordinary data still applies.
	NoCollinearProjection bool
}

func (o Options) prefix() string {
	if o.PanicPrefix == "" {
		return "dimred: "
	}
	return o.PanicPrefix
}

func (o Options) projTol() float64 {
	if o.ProjTol == 0 {
		return 1e-9
	}
	return o.ProjTol
}

func (o Options) timeout() time.Duration {
	if o.Timeout == 0 {
		return time.Minute
	}
	return o.Timeout
}

// Data returns the suite's n×p data: a 2-D linear structure with small
// isotropic noise and distinct column scales, deterministic for a seed.
// Data(40, 5, 40) is the training set of every check.
func Data(n, p int, seed uint64) *mat.Dense {
	rnd := rand.New(rand.NewPCG(seed, uint64(p)))
	Y := mat.NewDense(n, p, nil)
	for i := 0; i < n; i++ {
		a, b := rnd.NormFloat64(), rnd.NormFloat64()
		for j := 0; j < p; j++ {
			Y.Set(i, j, float64(j+1)*a+float64(p-j)*0.5*b+0.1*rnd.NormFloat64())
		}
	}
	return Y
}

func trainData() *mat.Dense { return Data(40, 5, 40) }

// Collinear returns n points on a line in p dimensions, unevenly spaced:
// every spectrum of these data has one non-zero eigenvalue and q − 1 that
// are zero up to rounding.
func Collinear(n, p int) *mat.Dense {
	Y := mat.NewDense(n, p, nil)
	for i := 0; i < n; i++ {
		s := float64(i) + 0.3*math.Sin(float64(i*i))
		for j := 0; j < p; j++ {
			Y.Set(i, j, s*float64(j+1)/float64(p)+float64(j))
		}
	}
	return Y
}

// sentinels are dimred's sentinel errors; an error from Fit must wrap one.
var sentinels = []error{dimred.ErrNaN, dimred.ErrOverflow, dimred.ErrTooFewPoints,
	dimred.ErrNotConverged, dimred.ErrSingular, dimred.ErrDisconnected,
	dimred.ErrNotDistance, dimred.ErrNotEuclidean}

func wrapsSentinel(err error) bool {
	for _, s := range sentinels {
		if errors.Is(err, s) {
			return true
		}
	}
	return false
}

// Embedder runs every check of the Embedder contract on models made by
// newModel, which must return a fresh, unfitted model whose latent
// dimension is opts.Q each time it is called.
func Embedder(t *testing.T, newModel func() dimred.Embedder, opts Options) {
	t.Helper()
	if opts.Q < 1 {
		panic("dimredtest: Options.Q must be set")
	}
	s := suite{newModel: newModel, o: opts}
	for _, c := range s.embedderChecks() {
		t.Run(c.name, c.run)
	}
}

// Projector runs Embedder's checks and those of ProjectTo on models made by
// newModel.
func Projector(t *testing.T, newModel func() dimred.Projector, opts Options) {
	t.Helper()
	if opts.Q < 1 {
		panic("dimredtest: Options.Q must be set")
	}
	s := suite{newModel: func() dimred.Embedder { return newModel() }, o: opts}
	for _, c := range s.embedderChecks() {
		t.Run(c.name, c.run)
	}
	for _, c := range s.projectorChecks() {
		t.Run(c.name, c.run)
	}
}

type check struct {
	name string
	run  func(t *testing.T)
}

type suite struct {
	newModel func() dimred.Embedder
	o        Options
}

func (s suite) embedderChecks() []check {
	return []check{
		{"YUnmodified", s.yUnmodified},
		{"LatentTo", s.latentTo},
		{"Unfitted", s.unfitted},
		{"Deterministic", s.deterministic},
		{"RefitIdentical", s.refitIdentical},
		{"UserSrc", s.userSrc},
		{"FieldsUnchanged", s.fieldsUnchanged},
		{"SecondShape", s.secondShape},
		{"FailedRefitUnfits", s.failedRefitUnfits},
		{"NaN", s.nan},
		{"TooFewPoints", s.tooFewPoints},
		{"ZeroQ", s.zeroQ},
		{"TooLargeQ", s.tooLargeQ},
		{"ImpossibleSettings", s.impossibleSettings},
		{"Overflow", s.overflow},
		{"DstRule", s.dstRule},
		{"Eigenvalues", s.eigenvalues},
		{"Monitor", s.monitor},
		{"Context", s.context},
		{"Progress", s.progress},
		{"ExtractorDst", s.extractorDst},
		{"NoColumns", s.noColumns},
		{"FewPoints", s.fewPoints},
		{"DegenerateData", s.degenerateData},
	}
}

func (s suite) projectorChecks() []check {
	return []check{
		{"ProjectNaN", s.projectNaN},
		{"ProjectTraining", s.projectTraining},
		{"ProjectTrainingCollinear", s.projectTrainingCollinear},
		{"ProjectHostile", s.projectHostile},
	}
}

// fitted fits a fresh model to Y and fails the test on an error other than
// ErrNotConverged (whose fit is usable).
func (s suite) fitted(t *testing.T, Y mat.Matrix) dimred.Embedder {
	t.Helper()
	m := s.newModel()
	if err := m.Fit(Y); err != nil && !errors.Is(err, dimred.ErrNotConverged) {
		t.Fatalf("Fit: %v", err)
	}
	return m
}

func latent(m dimred.Embedder) *mat.Dense {
	var X mat.Dense
	m.LatentTo(&X)
	return &X
}

// panicMessage runs f and returns the message it panicked with ("" if it
// did not panic).
func panicMessage(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
			if msg == "" {
				msg = "<empty panic>"
			}
		}
	}()
	f()
	return ""
}

// checkPanic fails unless f panics with the model's own message: the
// prefix, once (or mat.ErrShape where allowShape).
func (s suite) checkPanic(t *testing.T, what string, f func()) string {
	t.Helper()
	msg := panicMessage(f)
	p := s.o.prefix()
	switch {
	case msg == "":
		t.Errorf("%s: no panic", what)
	case !strings.HasPrefix(msg, p):
		t.Errorf("%s: panic %q lacks the prefix %q", what, msg, p)
	case strings.Count(msg, strings.TrimSpace(p)) > 1:
		t.Errorf("%s: panic %q repeats the prefix %q", what, msg, p)
	}
	return msg
}

// checkShapePanic fails unless f panics with mat.ErrShape.
func checkShapePanic(t *testing.T, what string, f func()) {
	t.Helper()
	if msg := panicMessage(f); msg != mat.ErrShape.Error() {
		t.Errorf("%s: panic %q, want mat.ErrShape", what, msg)
	}
}

// zeroRows is an n = 0 data matrix with p columns and zeroCols an n×0 one
// (gonum's Dense cannot be empty in one dimension only).
type zeroRows struct{ p int }

func (z zeroRows) Dims() (int, int)    { return 0, z.p }
func (z zeroRows) At(i, j int) float64 { panic(mat.ErrIndexOutOfRange) }
func (z zeroRows) T() mat.Matrix       { return mat.Transpose{Matrix: z} }

type zeroCols struct{ n int }

func (z zeroCols) Dims() (int, int)    { return z.n, 0 }
func (z zeroCols) At(i, j int) float64 { panic(mat.ErrIndexOutOfRange) }
func (z zeroCols) T() mat.Matrix       { return mat.Transpose{Matrix: z} }

// field returns the model's exported field name (invalid if it has none).
func field(m dimred.Embedder, name string) reflect.Value {
	v := reflect.ValueOf(m)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return reflect.Value{}
	}
	return v.Elem().FieldByName(name)
}

func setQ(m dimred.Embedder, q int) bool {
	f := field(m, "Q")
	if !f.IsValid() || !f.CanSet() || f.Kind() != reflect.Int {
		return false
	}
	f.SetInt(int64(q))
	return true
}

var sourceType = reflect.TypeOf((*rand.Source)(nil)).Elem()

func setSrc(m dimred.Embedder, src rand.Source) bool {
	f := field(m, "Src")
	if !f.IsValid() || !f.CanSet() || f.Type() != sourceType {
		return false
	}
	f.Set(reflect.ValueOf(src))
	return true
}

func hasNaNInf(X mat.Matrix) error {
	r, c := X.Dims()
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if v := X.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("non-finite latent position X[%d,%d] = %v", i, j, v)
			}
		}
	}
	return nil
}

// within runs f and fails the test if it takes longer than d (the goroutine
// of a hung f is leaked; the test has failed anyway).
func within(t *testing.T, d time.Duration, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%s did not return within %v", what, d)
	}
}

// fitOutcome fits m to Y within the time limit and fails unless the
// outcome is one the contract allows: a package panic (or mat.ErrShape),
// an error wrapping a sentinel, or success with finite n×q latent
// positions. It returns the panic message ("" if Fit did not panic).
func (s suite) fitOutcome(t *testing.T, m dimred.Embedder, Y mat.Matrix) string {
	t.Helper()
	var err error
	var msg string
	var X mat.Dense
	within(t, s.o.timeout(), "Fit", func() {
		msg = panicMessage(func() {
			if err = m.Fit(Y); err == nil || errors.Is(err, dimred.ErrNotConverged) {
				m.LatentTo(&X)
			}
		})
	})
	switch {
	case msg != "":
		if msg != mat.ErrShape.Error() {
			s.checkPanic(t, "Fit", func() { panic(msg) })
		}
	case err != nil && !wrapsSentinel(err):
		t.Errorf("error %q wraps none of dimred's sentinels", err)
	case err == nil || errors.Is(err, dimred.ErrNotConverged):
		n, _ := Y.Dims()
		if r, c := X.Dims(); r != n || c != s.o.Q {
			t.Errorf("LatentTo gave %d×%d, want %d×%d", r, c, n, s.o.Q)
		}
		if e := hasNaNInf(&X); e != nil {
			t.Errorf("Fit succeeded with a non-finite result: %v", e)
		}
	}
	return msg
}

// YUnmodified: Fit never modifies Y.
func (s suite) yUnmodified(t *testing.T) {
	Y := trainData()
	orig := mat.DenseCopyOf(Y)
	s.fitted(t, Y)
	if !mat.Equal(Y, orig) {
		t.Error("Fit modified Y")
	}
}

// LatentTo resizes an empty dst to n×q, panics with mat.ErrShape on another
// shape and with the package's message on a nil dst.
func (s suite) latentTo(t *testing.T) {
	Y := trainData()
	n, _ := Y.Dims()
	m := s.fitted(t, Y)
	X := latent(m)
	if r, q := X.Dims(); r != n || q != s.o.Q {
		t.Fatalf("LatentTo gave %d×%d, want %d×%d", r, q, n, s.o.Q)
	}
	if e := hasNaNInf(X); e != nil {
		t.Error(e)
	}
	checkShapePanic(t, "LatentTo wrong shape", func() { m.LatentTo(mat.NewDense(n+1, s.o.Q, nil)) })
	s.checkPanic(t, "LatentTo(nil)", func() { m.LatentTo(nil) })
}

// Use before a successful Fit panics with the package's message.
func (s suite) unfitted(t *testing.T) {
	m := s.newModel()
	s.checkPanic(t, "LatentTo before Fit", func() { m.LatentTo(&mat.Dense{}) })
	if p, ok := m.(dimred.Projector); ok {
		s.checkPanic(t, "ProjectTo before Fit", func() { p.ProjectTo(&mat.Dense{}, trainData()) })
	}
}

// A nil Src means a fixed seed: two models give bit-identical results.
func (s suite) deterministic(t *testing.T) {
	X1 := latent(s.fitted(t, trainData()))
	X2 := latent(s.fitted(t, trainData()))
	if !mat.Equal(X1, X2) {
		t.Errorf("two fits with nil Src differ (max |ΔX| = %.3g)", maxAbsDiff(X1, X2))
	}
}

// Refitting one model gives bit-identical results: Fit carries nothing
// over from an earlier fit.
func (s suite) refitIdentical(t *testing.T) {
	m := s.fitted(t, trainData())
	X1 := latent(m)
	if err := m.Fit(trainData()); err != nil {
		t.Fatal(err)
	}
	if X2 := latent(m); !mat.Equal(X1, X2) {
		t.Errorf("two fits of one model differ (max |ΔX| = %.3g)", maxAbsDiff(X1, X2))
	}
}

// A user Src: fits with equal sources agree bit for bit, on one model and
// on two.
func (s suite) userSrc(t *testing.T) {
	m := s.newModel()
	if !setSrc(m, rand.NewPCG(7, 8)) {
		t.Skip("no Src field")
	}
	fit := func(m dimred.Embedder) {
		t.Helper()
		if err := m.Fit(trainData()); err != nil && !errors.Is(err, dimred.ErrNotConverged) {
			t.Fatal(err)
		}
	}
	fit(m)
	X1 := latent(m)
	setSrc(m, rand.NewPCG(7, 8))
	fit(m)
	if X2 := latent(m); !mat.Equal(X1, X2) {
		t.Errorf("refit with an equal user Src differs (max |ΔX| = %.3g)", maxAbsDiff(X1, X2))
	}
	m2 := s.newModel()
	setSrc(m2, rand.NewPCG(7, 8))
	fit(m2)
	if X3 := latent(m2); !mat.Equal(X1, X3) {
		t.Errorf("two models with equal user Src differ (max |ΔX| = %.3g)", maxAbsDiff(X1, X3))
	}
}

// Fit changes no exported field: hyperparameters are the caller's, the
// fitted state is the model's own (scikit-learn's
// check_dont_overwrite_parameters). Pointers and interfaces are followed,
// so a user Kernel whose hyperparameters Fit optimised in place is caught;
// a rand.Source is compared by identity (drawing from it is its use), a
// func by its code pointer.
func (s suite) fieldsUnchanged(t *testing.T) {
	m := s.newModel()
	before := exportedFields(m)
	if err := m.Fit(trainData()); err != nil {
		t.Fatal(err)
	}
	after := exportedFields(m)
	for _, name := range sortedKeys(before) {
		if before[name] != after[name] {
			t.Errorf("Fit changed the exported field %s: %s → %s", name, before[name], after[name])
		}
	}
}

// secondShape: refitting to data of another shape (p > n here) gives the
// result a fresh model gives on those data.
func (s suite) secondShape(t *testing.T) {
	Y2 := Data(12, 15, 3)
	m := s.fitted(t, trainData())
	err := m.Fit(Y2)
	fresh := s.newModel()
	err2 := fresh.Fit(Y2)
	if (err == nil) != (err2 == nil) {
		t.Fatalf("refit on 12×15 data: err = %v; a fresh model: err = %v", err, err2)
	}
	if err != nil {
		if !wrapsSentinel(err) {
			t.Errorf("refit on 12×15 data: error %q wraps no sentinel", err)
		}
		return
	}
	X, Xf := latent(m), latent(fresh)
	if r, c := X.Dims(); r != 12 || c != s.o.Q {
		t.Fatalf("LatentTo after refit on 12×15 data gave %d×%d, want 12×%d", r, c, s.o.Q)
	}
	if !mat.Equal(X, Xf) {
		t.Errorf("refit on 12×15 data differs from a fresh fit (max |ΔX| = %.3g)", maxAbsDiff(X, Xf))
	}
	if p, ok := m.(dimred.Projector); ok {
		checkShapePanic(t, "ProjectTo with the first fit's p columns", func() { p.ProjectTo(&mat.Dense{}, trainData()) })
	}
}

// A failed Fit — an error or a recovered panic — leaves the model unfitted:
// after a good fit, each bad refit makes LatentTo (and ProjectTo) panic as
// before the first Fit, never serving the previous fit.
func (s suite) failedRefitUnfits(t *testing.T) {
	nanY := trainData()
	nanY.Set(7, 3, math.NaN())
	_, p := nanY.Dims()
	refits := []struct {
		name  string
		panic bool
		refit func(m dimred.Embedder) error
	}{
		{"NaN in Y", false, func(m dimred.Embedder) error { return m.Fit(nanY) }},
		{"one row", false, func(m dimred.Embedder) error { return m.Fit(mat.NewDense(1, p, nil)) }},
		{"zero rows", false, func(m dimred.Embedder) error { return m.Fit(zeroRows{p}) }},
		{"Q = −1", true, func(m dimred.Embedder) error {
			if !setQ(m, -1) {
				return errSkip
			}
			return m.Fit(trainData())
		}},
	}
	for _, r := range refits {
		t.Run(r.name, func(t *testing.T) {
			m := s.fitted(t, trainData())
			var err error
			msg := panicMessage(func() { err = r.refit(m) })
			if err == errSkip {
				t.Skip("no Q field")
			}
			switch {
			case r.panic && msg == "":
				t.Fatalf("bad refit did not panic (err = %v)", err)
			case !r.panic && msg != "":
				t.Errorf("bad refit panicked, want an error: %s", msg)
			case !r.panic && err == nil:
				t.Fatal("bad refit returned no error")
			}
			s.checkPanic(t, "LatentTo after a failed refit", func() { m.LatentTo(&mat.Dense{}) })
			if p, ok := m.(dimred.Projector); ok {
				s.checkPanic(t, "ProjectTo after a failed refit", func() { p.ProjectTo(&mat.Dense{}, trainData()) })
			}
		})
	}
}

var errSkip = errors.New("skip")

// NaN or ±Inf in Y → an error wrapping ErrNaN that names the entry.
func (s suite) nan(t *testing.T) {
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		Y := trainData()
		Y.Set(11, 3, v)
		var err error
		if msg := panicMessage(func() { err = s.newModel().Fit(Y) }); msg != "" {
			t.Errorf("%v in Y: Fit panicked: %s", v, msg)
			continue
		}
		if !errors.Is(err, dimred.ErrNaN) {
			t.Errorf("%v in Y: err = %v, want ErrNaN", v, err)
			continue
		}
		if !strings.Contains(err.Error(), "Y[11,3]") {
			t.Errorf("%v in Y: error %q does not name the entry Y[11,3]", v, err)
		}
		if p := strings.TrimSpace(s.o.prefix()); strings.Count(err.Error(), p) > 1 {
			t.Errorf("error %q repeats the prefix %q", err, p)
		}
	}
}

// 0 or 1 rows → an error wrapping ErrTooFewPoints, whatever Q is.
func (s suite) tooFewPoints(t *testing.T) {
	for _, Y := range []mat.Matrix{zeroRows{5}, mat.NewDense(1, 5, nil)} {
		n, _ := Y.Dims()
		var err error
		if msg := panicMessage(func() { err = s.newModel().Fit(Y) }); msg != "" {
			t.Errorf("n = %d: Fit panicked: %s", n, msg)
			continue
		}
		if !errors.Is(err, dimred.ErrTooFewPoints) {
			t.Errorf("n = %d: err = %v, want ErrTooFewPoints", n, err)
		}
	}
}

// A zero Q is a programmer error: Fit panics (unless ZeroQDefault).
func (s suite) zeroQ(t *testing.T) {
	m := s.newModel()
	if !setQ(m, 0) {
		t.Skip("no Q field")
	}
	if s.o.ZeroQDefault {
		if err := m.Fit(trainData()); err != nil {
			t.Fatalf("Fit with the default Q: %v", err)
		}
		return
	}
	s.checkPanic(t, "Fit with Q = 0", func() { m.Fit(trainData()) })
}

// A latent dimension larger than the number of points (Q = 5 on 4×10
// data) is a property of the data size: an error wrapping
// ErrTooFewPoints, for every method, never a panic nor a fit.
func (s suite) tooLargeQ(t *testing.T) {
	m := s.newModel()
	if !setQ(m, 5) {
		t.Skip("no Q field")
	}
	Y := Data(4, 10, 9)
	var err error
	if msg := panicMessage(func() { err = m.Fit(Y) }); msg != "" {
		t.Fatalf("Q = 5 on 4×10 data: Fit panicked: %s", msg)
	}
	if s.o.QBoundedByP {
		if err != nil {
			t.Errorf("Q = 5 on 4×10 data: err = %v, want success (Q ≤ p)", err)
		}
		m = s.newModel()
		setQ(m, 11)
		s.checkPanic(t, "Fit with Q = 11 > p = 10", func() { m.Fit(Y) })
		return
	}
	if !errors.Is(err, dimred.ErrTooFewPoints) {
		t.Errorf("Q = 5 on 4×10 data: err = %v, want ErrTooFewPoints", err)
	}
}

// Impossible settings are rejected, not silently reinterpreted: every
// float64 setting set to NaN and every int setting set to −3 — the model's
// own exported fields and those of the settings structs it points to
// (such as Eigen *linalg.EigenSettings) — makes Fit panic with the
// package's message.
func (s suite) impossibleSettings(t *testing.T) {
	for _, path := range settingPaths(s.newModel()) {
		t.Run(strings.Join(path, "."), func(t *testing.T) {
			m := s.newModel()
			f := settingField(m, path)
			var bad string
			switch f.Kind() {
			case reflect.Float64:
				f.SetFloat(math.NaN())
				bad = "NaN"
			case reflect.Int:
				f.SetInt(-3)
				bad = "−3"
			}
			var err error
			msg := panicMessage(func() { err = m.Fit(trainData()) })
			if msg == "" {
				t.Errorf("%s = %s accepted: Fit returned %v, want a panic", strings.Join(path, "."), bad, err)
				return
			}
			s.checkPanic(t, "Fit", func() { panic(msg) })
		})
	}
}

// settingPaths lists the float64 and int settings of m: its exported
// fields of those kinds, and those of the structs its exported pointer
// fields point to (allocated by settingField where nil).
func settingPaths(m dimred.Embedder) [][]string {
	v := reflect.ValueOf(m)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return nil
	}
	var out [][]string
	st := v.Elem().Type()
	for i := 0; i < st.NumField(); i++ {
		sf := st.Field(i)
		if !sf.IsExported() {
			continue
		}
		switch {
		case sf.Type.Kind() == reflect.Float64 || sf.Type.Kind() == reflect.Int:
			out = append(out, []string{sf.Name})
		case sf.Type.Kind() == reflect.Pointer && sf.Type.Elem().Kind() == reflect.Struct:
			et := sf.Type.Elem()
			for j := 0; j < et.NumField(); j++ {
				ef := et.Field(j)
				if ef.IsExported() && (ef.Type.Kind() == reflect.Float64 || ef.Type.Kind() == reflect.Int) {
					out = append(out, []string{sf.Name, ef.Name})
				}
			}
		}
	}
	return out
}

func settingField(m dimred.Embedder, path []string) reflect.Value {
	f := reflect.ValueOf(m).Elem().FieldByName(path[0])
	if len(path) == 2 {
		if f.IsNil() {
			f.Set(reflect.New(f.Type().Elem()))
		}
		f = f.Elem().FieldByName(path[1])
	}
	return f
}

// Finite data whose covariance, Gram or distance matrix overflows (a column
// ~1e300): an error wrapping ErrOverflow, never ErrNaN blaming the caller's
// data, nor a silent Inf; a method whose result is still representable may
// succeed with finite latent positions.
func (s suite) overflow(t *testing.T) {
	Y := trainData()
	for i := 0; i < 40; i++ {
		Y.Set(i, 1, 1e300*Y.At(i, 1))
	}
	m := s.newModel()
	var err error
	if msg := panicMessage(func() { err = m.Fit(Y) }); msg != "" {
		t.Fatalf("Fit panicked: %s", msg)
	}
	if err == nil {
		if e := hasNaNInf(latent(m)); e != nil {
			t.Errorf("Fit succeeded with a non-finite result: %v", e)
		}
		return
	}
	if !errors.Is(err, dimred.ErrOverflow) {
		t.Errorf("err = %v, want ErrOverflow", err)
	}
	if errors.Is(err, dimred.ErrNaN) || strings.Contains(err.Error(), "NaN or Inf in input") {
		t.Errorf("%q reports the overflow as NaN in the input", err)
	}
}

// The dst rule on the shared extractors: EigenvaluesTo allocates a nil dst
// and panics with mat.ErrShape on another length; LoadingsTo resizes an
// empty dst and panics on another shape.
func (s suite) dstRule(t *testing.T) {
	type eigenvaluer interface{ EigenvaluesTo([]float64) []float64 }
	type loader interface{ LoadingsTo(*mat.Dense) }
	m := s.fitted(t, trainData())
	if e, ok := m.(eigenvaluer); ok {
		v := e.EigenvaluesTo(nil)
		if len(v) == 0 {
			t.Fatal("EigenvaluesTo(nil) returned nothing")
		}
		w := e.EigenvaluesTo(make([]float64, len(v)))
		for i := range v {
			if v[i] != w[i] {
				t.Errorf("EigenvaluesTo into a sized dst: %v, want %v", w, v)
				break
			}
		}
		checkShapePanic(t, "EigenvaluesTo with a dst of another length", func() { e.EigenvaluesTo(make([]float64, len(v)+1)) })
	}
	if l, ok := m.(loader); ok {
		var W mat.Dense
		l.LoadingsTo(&W)
		r, q := W.Dims()
		checkShapePanic(t, "LoadingsTo with a dst of another shape", func() { l.LoadingsTo(mat.NewDense(r+1, q, nil)) })
	}
}

// EigenvaluesTo, where the model has it, follows the package's one rule:
// at least the q values behind X's columns, read from the end the
// embedding uses — so in one order, descending or ascending — and finite.
func (s suite) eigenvalues(t *testing.T) {
	type eigenvaluer interface{ EigenvaluesTo([]float64) []float64 }
	m := s.fitted(t, trainData())
	e, ok := m.(eigenvaluer)
	if !ok {
		t.Skip("no EigenvaluesTo")
	}
	v := e.EigenvaluesTo(nil)
	if len(v) < s.o.Q {
		t.Fatalf("EigenvaluesTo gave %d values, want at least q = %d", len(v), s.o.Q)
	}
	up, down := true, true
	for i := 1; i < len(v); i++ {
		up = up && v[i] >= v[i-1]
		down = down && v[i] <= v[i-1]
	}
	if !up && !down {
		t.Errorf("EigenvaluesTo is neither ascending nor descending: %v", v)
	}
	for i, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			t.Errorf("EigenvaluesTo[%d] = %v", i, x)
		}
	}
}

// A Monitor field, where the model has one, has the package's type
// func(iter int, objective float64) bool and, when it returns false,
// leaves the fit bit-identical to one without it.
func (s suite) monitor(t *testing.T) {
	m := s.newModel()
	f := field(m, "Monitor")
	if !f.IsValid() {
		t.Skip("no Monitor field")
	}
	calls := 0
	mon := func(iter int, objective float64) bool { calls++; return false }
	if f.Type() != reflect.TypeOf(mon) {
		t.Fatalf("Monitor has type %v, want %T", f.Type(), mon)
	}
	f.Set(reflect.ValueOf(mon))
	if err := m.Fit(trainData()); err != nil && !errors.Is(err, dimred.ErrNotConverged) {
		t.Fatal(err)
	}
	if calls == 0 {
		// A closed-form path (PPCA's default) has no iterations to show.
		t.Log("Fit did not call Monitor (a non-iterative path)")
	}
	X0 := latent(s.fitted(t, trainData()))
	if X := latent(m); !mat.Equal(X, X0) {
		t.Errorf("a Monitor returning false changed the fit (max |ΔX| = %.3g)", maxAbsDiff(X, X0))
	}
}

// A model with FitContext (dimred.ContextFitter) honours its context: a
// context cancelled, or past its deadline, before the fit starts gives an
// error wrapping context.Canceled (context.DeadlineExceeded) — never one of
// dimred's sentinels, never a panic — and leaves the model unfitted, also
// when it held an earlier fit. FitContext with a live context is Fit.
func (s suite) context(t *testing.T) {
	m := s.newModel()
	cf, ok := m.(dimred.ContextFitter)
	if !ok {
		t.Skip("no FitContext")
	}
	Y := trainData()
	if err := cf.FitContext(context.Background(), Y); err != nil && !errors.Is(err, dimred.ErrNotConverged) {
		t.Fatalf("FitContext(Background): %v", err)
	}
	if X, X0 := latent(m), latent(s.fitted(t, Y)); !mat.Equal(X, X0) {
		t.Errorf("FitContext(Background) differs from Fit (max |ΔX| = %.3g)", maxAbsDiff(X, X0))
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	late, cancel2 := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel2()
	for _, c := range []struct {
		name string
		ctx  context.Context
		want error
	}{{"cancelled", cancelled, context.Canceled}, {"past deadline", late, context.DeadlineExceeded}} {
		var err error
		within(t, s.o.timeout(), "FitContext", func() {
			if msg := panicMessage(func() { err = cf.FitContext(c.ctx, Y) }); msg != "" {
				t.Errorf("%s context: FitContext panicked: %s", c.name, msg)
			}
		})
		if !errors.Is(err, c.want) {
			t.Errorf("%s context: error %v does not wrap %v", c.name, err, c.want)
		}
		if wrapsSentinel(err) {
			t.Errorf("%s context: error %v wraps one of dimred's sentinels: a caller could not tell a cancel from a failure", c.name, err)
		}
		s.checkPanic(t, "LatentTo after a cancelled refit", func() { m.LatentTo(&mat.Dense{}) })
	}
}

// A model with FitContext reports its progress through the context's
// progress.Reporter: within each phase (a run of reports with one name,
// which starts again at done = 0 when the phase repeats) done never
// decreases, and 0 ≤ done ≤ total when the total is known. Watching the
// fit does not change it.
func (s suite) progress(t *testing.T) {
	m := s.newModel()
	cf, ok := m.(dimred.ContextFitter)
	if !ok {
		t.Skip("no FitContext")
	}
	type report struct {
		phase       string
		done, total int
	}
	var mu sync.Mutex
	var reports []report
	r := progress.ReporterFunc(func(phase string, done, total int) {
		mu.Lock()
		reports = append(reports, report{phase, done, total})
		mu.Unlock()
	})
	Y := trainData()
	if err := cf.FitContext(progress.With(context.Background(), r), Y); err != nil && !errors.Is(err, dimred.ErrNotConverged) {
		t.Fatalf("FitContext: %v", err)
	}
	if X, X0 := latent(m), latent(s.fitted(t, Y)); !mat.Equal(X, X0) {
		t.Errorf("a progress.Reporter changed the fit (max |ΔX| = %.3g)", maxAbsDiff(X, X0))
	}
	last := map[string]report{}
	phases := map[string]bool{}
	for i, rp := range reports {
		phases[rp.phase] = true
		switch {
		case rp.done < 0 || rp.total < 0:
			t.Errorf("report %d: %q done %d of %d: negative", i, rp.phase, rp.done, rp.total)
		case rp.total > 0 && rp.done > rp.total:
			t.Errorf("report %d: %q done %d > total %d", i, rp.phase, rp.done, rp.total)
		}
		if l, ok := last[rp.phase]; ok && rp.done != 0 && (rp.done < l.done || rp.total != l.total) {
			t.Errorf("report %d: %q went from %d of %d to %d of %d", i, rp.phase, l.done, l.total, rp.done, rp.total)
		}
		last[rp.phase] = rp
	}
	names := make([]string, 0, len(phases))
	for p := range phases {
		names = append(names, p)
	}
	sort.Strings(names)
	t.Logf("%d reports in phases %q", len(reports), names)
}

// Every extractor whose only argument is its dst follows the one dst rule:
// a nil matrix dst panics with the package's message (not a nil
// dereference), and a nil or empty slice dst is allocated.
func (s suite) extractorDst(t *testing.T) {
	denseT := reflect.TypeOf((*mat.Dense)(nil))
	symT := reflect.TypeOf((*mat.SymDense)(nil))
	vecT := reflect.TypeOf((*mat.VecDense)(nil))
	sliceT := reflect.TypeOf([]float64(nil))
	m := s.newModel()
	if err := m.Fit(trainData()); err != nil && !errors.Is(err, dimred.ErrNotConverged) {
		t.Fatal(err)
	}
	v := reflect.ValueOf(m)
	for i := 0; i < v.NumMethod(); i++ {
		name := v.Type().Method(i).Name
		f := v.Method(i)
		ft := f.Type()
		if !strings.HasSuffix(name, "To") || ft.NumIn() != 1 {
			continue
		}
		switch ft.In(0) {
		case denseT, symT, vecT:
			s.checkPanic(t, name+"(nil)", func() { f.Call([]reflect.Value{reflect.Zero(ft.In(0))}) })
		case sliceT:
			want := f.Call([]reflect.Value{reflect.Zero(sliceT)})[0].Len()
			var got int
			if msg := panicMessage(func() { got = f.Call([]reflect.Value{reflect.ValueOf([]float64{})})[0].Len() }); msg != "" {
				t.Errorf("%s([]float64{}) panicked: %s", name, msg)
			} else if got != want {
				t.Errorf("%s([]float64{}) has length %d, want %d", name, got, want)
			}
		}
	}
}

// An n×0 Y (no features) ends in a contract outcome.
func (s suite) noColumns(t *testing.T) {
	s.fitOutcome(t, s.newModel(), zeroCols{40})
}

// Few points (n = q + 1) with the default neighbour count: an error or a
// finite fit, never a panic — a default count exceeding n is a property
// of the data.
func (s suite) fewPoints(t *testing.T) {
	n := s.o.Q + 1
	m := s.newModel()
	if k := field(m, "K"); k.IsValid() && k.Kind() == reflect.Int {
		k.SetInt(0)
	}
	if f := field(m, "Inducing"); f.IsValid() && f.Kind() == reflect.Int {
		n = max(n, int(f.Int()))
	}
	Y := mat.DenseCopyOf(trainData().Slice(0, n, 0, 5))
	if msg := s.fitOutcome(t, m, Y); msg != "" {
		t.Errorf("n = %d: Fit panicked: %s", n, msg)
	}
}

// Degenerate data — every row identical, half the rows duplicated, integer
// values with ties, one column 1e-300 times the rest, rank one, collinear —
// end in a contract outcome.
func (s suite) degenerateData(t *testing.T) {
	identical := mat.NewDense(40, 5, nil)
	for i := 0; i < 40; i++ {
		identical.SetRow(i, []float64{1.5, -2, 3, 0.25, 7})
	}
	halfDup := trainData()
	for i := 20; i < 40; i++ {
		halfDup.SetRow(i, halfDup.RawRowView(i-20))
	}
	ints := trainData()
	for i := 0; i < 40; i++ {
		for j := 0; j < 5; j++ {
			ints.Set(i, j, math.Mod(math.Abs(math.Round(ints.At(i, j))), 3))
		}
	}
	tiny := trainData()
	rank1 := mat.NewDense(40, 5, nil)
	for i := 0; i < 40; i++ {
		tiny.Set(i, 1, 1e-300*tiny.At(i, 1))
		for j := 0; j < 5; j++ {
			rank1.Set(i, j, float64(i*(j+1)))
		}
	}
	for _, d := range []struct {
		name string
		Y    *mat.Dense
	}{{"identical rows", identical}, {"half duplicated", halfDup}, {"integer ties", ints},
		{"tiny column", tiny}, {"rank one", rank1}, {"collinear", Collinear(40, 5)}} {
		t.Run(d.name, func(t *testing.T) { s.fitOutcome(t, s.newModel(), d.Y) })
	}
}

// NaN in ProjectTo's input panics with the package's message naming the
// entry (or, with ProjectMissing, is marginalised to finite positions).
func (s suite) projectNaN(t *testing.T) {
	p := s.fitted(t, trainData()).(dimred.Projector)
	Ynew := mat.DenseCopyOf(trainData().Slice(0, 3, 0, 5))
	Ynew.Set(1, 2, math.NaN())
	var X mat.Dense
	if s.o.ProjectMissing {
		p.ProjectTo(&X, Ynew)
		if e := hasNaNInf(&X); e != nil {
			t.Errorf("ProjectTo with a missing entry: %v", e)
		}
		return
	}
	msg := s.checkPanic(t, "ProjectTo with a NaN", func() { p.ProjectTo(&X, Ynew) })
	if msg != "" && !strings.Contains(msg, "Ynew[1,2]") {
		t.Errorf("panic %q does not name the entry Ynew[1,2]", msg)
	}
}

// projectDiff is max |ProjectTo(Y) − LatentTo| relative to max |LatentTo|.
func projectDiff(p dimred.Projector, Y mat.Matrix) float64 {
	X := latent(p)
	var P mat.Dense
	p.ProjectTo(&P, Y)
	return maxAbsDiff(X, &P) / mat.Norm(X, math.Inf(1))
}

// ProjectTo of the training rows gives LatentTo's positions.
func (s suite) projectTraining(t *testing.T) {
	Y := trainData()
	p := s.fitted(t, Y).(dimred.Projector)
	if d := projectDiff(p, Y); !(d <= s.o.projTol()) {
		t.Errorf("ProjectTo(training rows) differs from LatentTo by %.3g (relative), tolerance %g", d, s.o.projTol())
	}
}

// The same on collinear points, where q exceeds the rank and the trailing
// eigenvalues are zero up to rounding: a projection must not divide by
// their square roots (it was off by 5e5 relative in classical MDS).
func (s suite) projectTrainingCollinear(t *testing.T) {
	if s.o.NoCollinearProjection {
		t.Skip("Options.NoCollinearProjection")
	}
	Y := Collinear(40, 5)
	m := s.newModel()
	var err error
	if msg := panicMessage(func() { err = m.Fit(Y) }); msg != "" {
		s.checkPanic(t, "Fit", func() { panic(msg) })
		return
	}
	if err != nil {
		if !wrapsSentinel(err) {
			t.Errorf("error %q wraps no sentinel", err)
		}
		t.Skipf("Fit: %v", err)
	}
	p := m.(dimred.Projector)
	if d := projectDiff(p, Y); !(d <= s.o.projTol()) {
		t.Errorf("ProjectTo(training rows) of collinear data differs from LatentTo by %.3g (relative), tolerance %g", d, s.o.projTol())
	}
}

// ProjectTo of new data: zero rows is the package's panic (gonum has no
// 0×q result); one row and rows far outside the training data (×1e6, and
// ×1e300 where ‖y‖² overflows) give finite positions or the package's
// panic — never NaN.
func (s suite) projectHostile(t *testing.T) {
	far := func(f float64) *mat.Dense {
		Y := mat.DenseCopyOf(trainData().Slice(0, 3, 0, 5))
		Y.Scale(f, Y)
		return Y
	}
	p := s.fitted(t, trainData()).(dimred.Projector)
	s.checkPanic(t, "ProjectTo of zero rows", func() { p.ProjectTo(&mat.Dense{}, zeroRows{5}) })
	s.checkPanic(t, "ProjectTo(nil, …)", func() { p.ProjectTo(nil, trainData()) })
	checkShapePanic(t, "ProjectTo with another number of columns", func() { p.ProjectTo(&mat.Dense{}, Data(3, 6, 1)) })
	for _, in := range []struct {
		name string
		Y    mat.Matrix
	}{
		{"one row", trainData().Slice(4, 5, 0, 5)},
		{"rows ×1e6", far(1e6)},
		{"rows ×1e300", far(1e300)},
	} {
		var X mat.Dense
		msg := panicMessage(func() { p.ProjectTo(&X, in.Y) })
		if msg != "" {
			s.checkPanic(t, "ProjectTo of "+in.name, func() { panic(msg) })
			if strings.Contains(msg, "Inf in input") || strings.Contains(msg, "NaN in input") {
				t.Errorf("ProjectTo of %s (finite): panic %q blames the input", in.name, msg)
			}
			continue
		}
		if e := hasNaNInf(&X); e != nil {
			t.Errorf("ProjectTo of %s: %v", in.name, e)
		}
	}
}

func maxAbsDiff(a, b mat.Matrix) float64 {
	r, c := a.Dims()
	if r2, c2 := b.Dims(); r2 != r || c2 != c {
		return math.Inf(1)
	}
	d := 0.0
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			x := math.Abs(a.At(i, j) - b.At(i, j))
			if !(x <= d) {
				d = x
			}
		}
	}
	return d
}

// exportedFields renders each exported field of the struct m points to,
// following pointers and interfaces, with rand.Source fields by identity.
func exportedFields(m any) map[string]string {
	out := map[string]string{}
	v := reflect.ValueOf(m)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return out
	}
	v = v.Elem()
	for i := 0; i < v.NumField(); i++ {
		sf := v.Type().Field(i)
		if !sf.IsExported() {
			continue
		}
		var b strings.Builder
		f := v.Field(i)
		if sf.Type == sourceType {
			if f.IsNil() {
				b.WriteString("nil")
			} else {
				fmt.Fprintf(&b, "%T", f.Interface())
				if e := f.Elem(); e.Kind() == reflect.Pointer {
					fmt.Fprintf(&b, "@%x", e.Pointer())
				}
			}
		} else {
			render(&b, f, map[uintptr]bool{})
		}
		out[sf.Name] = b.String()
	}
	return out
}

// render writes a deep rendering of v: floats by their bits (NaN equals
// NaN), pointers by their targets, funcs and channels by identity.
func render(b *strings.Builder, v reflect.Value, seen map[uintptr]bool) {
	switch v.Kind() {
	case reflect.Invalid:
		b.WriteString("<invalid>")
	case reflect.Bool:
		fmt.Fprint(b, v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		fmt.Fprint(b, v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		fmt.Fprint(b, v.Uint())
	case reflect.Float32, reflect.Float64:
		fmt.Fprintf(b, "%v(%x)", v.Float(), math.Float64bits(v.Float()))
	case reflect.Complex64, reflect.Complex128:
		fmt.Fprint(b, v.Complex())
	case reflect.String:
		fmt.Fprintf(b, "%q", v.String())
	case reflect.Pointer:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		if seen[v.Pointer()] {
			fmt.Fprintf(b, "<cycle %x>", v.Pointer())
			return
		}
		seen[v.Pointer()] = true
		b.WriteString("&")
		render(b, v.Elem(), seen)
	case reflect.Interface:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		fmt.Fprintf(b, "%v:", v.Elem().Type())
		render(b, v.Elem(), seen)
	case reflect.Struct:
		b.WriteString("{")
		for i := 0; i < v.NumField(); i++ {
			fmt.Fprintf(b, "%s:", v.Type().Field(i).Name)
			render(b, v.Field(i), seen)
			b.WriteString(" ")
		}
		b.WriteString("}")
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			b.WriteString("nil")
			return
		}
		b.WriteString("[")
		for i := 0; i < v.Len(); i++ {
			render(b, v.Index(i), seen)
			b.WriteString(" ")
		}
		b.WriteString("]")
	case reflect.Map:
		var keys []string
		iter := v.MapRange()
		for iter.Next() {
			var kb strings.Builder
			render(&kb, iter.Key(), seen)
			kb.WriteString(":")
			render(&kb, iter.Value(), seen)
			keys = append(keys, kb.String())
		}
		sort.Strings(keys)
		fmt.Fprint(b, keys)
	default: // Func, Chan, UnsafePointer
		fmt.Fprintf(b, "%v@%x", v.Type(), v.Pointer())
	}
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
