package progress_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/dimredbook/book/datasets"
	"github.com/dimredbook/book/dimred"
	"github.com/dimredbook/book/dimred/progress"
)

// A fit under a context that carries a Reporter and a deadline: the
// Reporter sees the phases of Isomap in turn, and a fit still running at
// the deadline would return an error wrapping context.DeadlineExceeded.
func Example() {
	Y := datasets.SwissRoll(400, rand.NewPCG(1, 2)).Y
	var mu sync.Mutex
	var phases []string
	r := progress.ReporterFunc(func(phase string, done, total int) {
		mu.Lock()
		defer mu.Unlock()
		if len(phases) == 0 || phases[len(phases)-1] != phase {
			phases = append(phases, phase)
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	m := &dimred.Isomap{Q: 2, K: 10}
	if err := m.FitContext(progress.With(ctx, r), Y); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%q\n", phases)
	// Output:
	// ["k-nearest neighbours" "geodesic distances" "eigensolver"]
}
