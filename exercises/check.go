package exercises

import (
	"fmt"
	"io"
	"os"
	"sort"
	"sync"
)

// Answer is how one exercise's answer is computed and compared.
type Answer struct {
	// Want computes the reference answer: a number (any Go integer or
	// floating-point type), a slice of numbers or a mat.Matrix. It runs
	// when the answer is first checked, once: an error, a panic or a value
	// of another type is kept and reported by every Verdict as a fault of
	// the exercise.
	Want func() (any, error)

	// Tol is the relative tolerance: got is right when
	// ‖got − want‖_F ≤ Tol·max(‖want‖_F, 1e-300). Zero means 1e-6.
	Tol float64

	// UpToSign accepts each column (each entry of a vector) multiplied
	// by −1, as for eigenvectors and embeddings.
	UpToSign bool

	// Hint is printed after a wrong answer.
	Hint string
}

var (
	mu       sync.Mutex
	registry = map[string]*entry{}
)

type entry struct {
	Answer
	once sync.Once
	want any
	err  error
}

// Register records the answer of exercise id. It panics if id is
// registered twice or a.Want is nil: both are programming errors.
func Register(id string, a Answer) {
	if a.Want == nil {
		panic("exercises: Register " + id + " without Want")
	}
	mu.Lock()
	defer mu.Unlock()
	if _, dup := registry[id]; dup {
		panic("exercises: " + id + " registered twice")
	}
	registry[id] = &entry{Answer: a}
}

// IDs returns the registered exercise ids, sorted.
func IDs() []string {
	mu.Lock()
	defer mu.Unlock()
	ids := make([]string, 0, len(registry))
	for id := range registry {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// Check compares got with the answer of exercise id, prints a one-line
// verdict (✓ or ✗ and why) to standard output and reports whether got is
// right. It never prints the answer.
func Check(id string, got any) bool {
	return CheckTo(os.Stdout, id, got)
}

// CheckTo is Check writing to w.
func CheckTo(w io.Writer, id string, got any) bool {
	ok, why := Verdict(id, got)
	if ok {
		fmt.Fprintf(w, "✓ exercise %s: right%s\n", id, why)
		return true
	}
	fmt.Fprintf(w, "✗ exercise %s: %s\n", id, why)
	return false
}

// Verdict is Check without printing: whether got is right and a short
// reason that never contains the reference value.
func Verdict(id string, got any) (ok bool, why string) {
	mu.Lock()
	e := registry[id]
	mu.Unlock()
	if e == nil {
		return false, fmt.Sprintf("no exercise %q has a checkable answer", id)
	}
	e.once.Do(func() { e.want, e.err = reference(e.Want) })
	if e.err != nil {
		return false, fmt.Sprintf("the reference answer of exercise %s could not be computed — a fault of the exercise, not in your answer: %v", id, e.err)
	}
	ok, why = compare(got, e.want, e.Answer)
	if !ok && e.Hint != "" {
		why += " — hint: " + e.Hint
	}
	return ok, why
}

// reference runs want, turning a panic or a value that is not a number, a
// slice of numbers or a matrix into an error. Verdict keeps what it
// returns (sync.Once), so a broken exercise is reported on every call
// instead of panicking once and leaving a nil reference behind.
func reference(want func() (any, error)) (v any, err error) {
	defer func() {
		if r := recover(); r != nil {
			v, err = nil, fmt.Errorf("its reference computation panicked: %v", r)
		}
	}()
	v, err = want()
	if err != nil {
		return nil, err
	}
	if _, ok := asValue(v); !ok {
		return nil, fmt.Errorf("its reference answer is a %T, not a number, a slice of numbers or a matrix", v)
	}
	return v, nil
}
