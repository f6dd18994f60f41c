package datasets_test

import (
	"fmt"

	"github.com/dimredbook/book/datasets"
)

// Loading the oil data and handling the "not available" case, as a program
// would (tests use dstest.Check instead).
func ExampleOil() {
	ds, err := datasets.Oil("train")
	if datasets.Missing(err) {
		fmt.Println("set DIMRED_DATA or run `go run ./scripts/fetch-data`:", err)
		return
	}
	if err != nil {
		panic(err)
	}
	n, p := ds.Y.Dims()
	fmt.Println(n, p, ds.LabelNames, ds.ClassCounts())
}

// The road distances of the book's 53 cities: distances in D, names in
// RowNames, latitude and longitude in T.
func ExampleEuropeRoads() {
	ds, err := datasets.EuropeRoads(datasets.Cities53)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s–%s: %.0f km\n", ds.RowNames[0], ds.RowNames[1], ds.D.At(0, 1))
}

// Path resolves one registered file (mirror → cache → download) and
// verifies its SHA-256.
func ExamplePath() {
	p, err := datasets.Path("six", "br1561_6.3.pgm")
	fmt.Println(p, err)
}
