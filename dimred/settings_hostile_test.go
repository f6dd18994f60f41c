package dimred

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// panicText runs f and returns what it panicked with ("" if it returned).
func panicText(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	f()
	return ""
}

// Settings outside a model's domain are programmer errors and panic with a
// "dimred:" message naming the setting, the value and the rule — never a
// runtime error from deep inside the fit, and never a message whose
// stated rule the given values satisfy. Found by a review QA pass that fed
// hostile settings to TSNE and UMAP from outside the package:
//
//   - TSNE{Perplexity: 0.2} (any Perplexity < 1/3) panicked with "runtime
//     error: index out of range [0] with length 0": k = ⌊3·Perplexity⌋ = 0
//     neighbours. A perplexity 2^H is at least 1, so Perplexity < 1 is now
//     an impossible parameter, like a negative one.
//   - UMAP{Spread: 1e-300} panicked with "MinDist = 0, Spread = 1e-300
//     (want 0 ≤ MinDist ≤ Spread)", a rule those numbers satisfy: the check
//     compares the default MinDist 0.1, and the message printed the raw
//     fields. It now prints the values compared.
func TestImpossibleSettingsPanicMessages(t *testing.T) {
	Y := randMatrix(rand.New(rand.NewPCG(3, 1)), 40, 5)
	for _, tc := range []struct {
		name string
		fit  func() error
		want string // substring of the panic message
	}{
		{"TSNE Perplexity 1e-300", func() error { return (&TSNE{Perplexity: 1e-300, MaxIter: 10}).Fit(Y) }, "dimred: TSNE: Perplexity = 1e-300, want a finite number ≥ 1"},
		{"TSNE Perplexity 0.2", func() error { return (&TSNE{Perplexity: 0.2, MaxIter: 10}).Fit(Y) }, "Perplexity = 0.2, want a finite number ≥ 1"},
		{"TSNE Perplexity 0.5", func() error { return (&TSNE{Perplexity: 0.5, MaxIter: 10}).Fit(Y) }, "Perplexity = 0.5, want a finite number ≥ 1"},
		{"TSNE Perplexity -1", func() error { return (&TSNE{Perplexity: -1, MaxIter: 10}).Fit(Y) }, "Perplexity = -1, want a finite number ≥ 1"},
		{"UMAP Spread 1e-300", func() error { return (&UMAP{NNeighbors: 5, Spread: 1e-300, NEpochs: 5}).Fit(Y) }, "MinDist = 0.1, Spread = 1e-300 after defaults"},
		{"UMAP MinDist 5", func() error { return (&UMAP{NNeighbors: 5, MinDist: 5, NEpochs: 5}).Fit(Y) }, "MinDist = 5, Spread = 1 after defaults"},
	} {
		msg := panicText(func() { tc.fit() })
		if !strings.Contains(msg, tc.want) {
			t.Errorf("%s: panic %q, want one containing %q", tc.name, msg, tc.want)
		}
	}
	// The smallest allowed perplexity still fits.
	if err := (&TSNE{Perplexity: 1, MaxIter: 10}).Fit(Y); err != nil {
		t.Errorf("TSNE Perplexity 1: %v", err)
	}
}
