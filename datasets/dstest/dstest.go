// Package dstest is the test-side helper for code that loads the book's
// data: it skips a test when the data are not available, unless
// DIMRED_REQUIRE_DATA=1 (CI), when it fails. It imports "testing", which is
// why it is not part of package datasets.
package dstest

import (
	"testing"

	"github.com/dimredbook/book/datasets"
)

// Check handles the error of a loader: nil returns; missing data skip the
// test (or fail it under DIMRED_REQUIRE_DATA=1); any other error fails it.
//
//	ds, err := datasets.Oil("train")
//	dstest.Check(t, err)
func Check(t testing.TB, err error) {
	t.Helper()
	if err == nil {
		return
	}
	if datasets.Skippable(err) {
		t.Skip(err)
	}
	t.Fatal(err)
}

// Load calls load and handles its error with Check.
//
//	ds := dstest.Load(t, datasets.Stick)
func Load(t testing.TB, load func() (*datasets.Dataset, error)) *datasets.Dataset {
	t.Helper()
	ds, err := load()
	Check(t, err)
	return ds
}
