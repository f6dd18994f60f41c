package exercises_test

import (
	"os"

	"github.com/dimredbook/book/exercises"
)

func Example() {
	// An exercise registers how its answer is computed (here a constant;
	// in the notebooks the library computes it from the book's data).
	exercises.Register("example.1", exercises.Answer{
		Want: func() (any, error) { return []float64{0.5, 0.25}, nil },
		Hint: "divide by n, not n−1",
	})
	exercises.CheckTo(os.Stdout, "example.1", []float64{1, 0.5})
	exercises.CheckTo(os.Stdout, "example.1", []float64{0.5, 0.25})
	// Output:
	// ✗ exercise example.1: right up to a constant factor: the answer is 0.5 times yours (look for n against n−1, a missing square root or a factor of 2) — hint: divide by n, not n−1
	// ✓ exercise example.1: right
}
