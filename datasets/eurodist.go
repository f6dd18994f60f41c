package datasets

import (
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// EurodistCities are the 21 city names of R's eurodist, in its order (the
// labels file of the mirror has no public URL of its own, so they are
// carried here; a test checks them against the mirror's copy).
var EurodistCities = []string{
	"Athens", "Barcelona", "Brussels", "Calais", "Cherbourg", "Cologne", "Copenhagen",
	"Geneva", "Gibraltar", "Hamburg", "Hook of Holland", "Lisbon", "Lyons", "Madrid",
	"Marseilles", "Milan", "Munich", "Paris", "Rome", "Stockholm", "Vienna",
}

// Eurodist loads R's eurodist: road distances in km between 21 European
// cities (from The Cambridge Encyclopaedia), a classic classical-MDS example
// with negative eigenvalues. The distances are in D (21×21); Y is nil and
// RowNames are the cities.
func Eurodist() (*Dataset, error) {
	const name = "eurodist.csv"
	b, err := readFile("eurodist", name)
	if err != nil {
		return nil, err
	}
	D, err := parseRDist("eurodist/"+name, b, len(EurodistCities))
	if err != nil {
		return nil, err
	}
	return &Dataset{
		Name:     "eurodist",
		D:        D,
		RowNames: append([]string(nil), EurodistCities...),
		Citation: "R Core Team, R datasets package: eurodist (road distances from a table in The Cambridge Encyclopaedia).",
		License:  "R datasets package (GPL-2 | GPL-3), exported by the Rdatasets project.",
		Source:   sources("eurodist", name),
		Details:  "R `dist` object exported as its lower triangle in column order (d21, d31, …, d(n)(n-1)); symmetrised into a 21×21 km matrix with zero diagonal.",
	}, nil
}

// parseRDist parses an Rdatasets export of a `dist` object: a header line,
// then lines "index,value" holding the lower triangle in column order.
func parseRDist(file string, b []byte, n int) (*mat.SymDense, error) {
	if n < 1 || n > 4096 {
		return nil, parseErr(file, 0, "bad number of objects %d", n)
	}
	want := n * (n - 1) / 2
	vals := make([]float64, 0, want)
	l := lines{b: b}
	header := true
	for l.next() {
		if strings.TrimSpace(l.text) == "" {
			continue
		}
		if header {
			header = false
			continue
		}
		fields := strings.Split(l.text, ",")
		if len(fields) != 2 {
			return nil, parseErr(file, l.n, "%d fields, want 2 (index, distance)", len(fields))
		}
		idx := strings.Trim(strings.TrimSpace(fields[0]), `"`)
		if k, err := strconv.Atoi(idx); err != nil || k != len(vals)+1 {
			return nil, parseErr(file, l.n, "index %s, want %d", quote(idx), len(vals)+1)
		}
		v, ok := parseFloat(strings.TrimSpace(fields[1]))
		if !ok || v < 0 {
			return nil, parseErr(file, l.n, "distance %s is not a non-negative number", quote(fields[1]))
		}
		if len(vals) == want {
			return nil, parseErr(file, l.n, "more than %d distances", want)
		}
		vals = append(vals, v)
	}
	if len(vals) != want {
		return nil, parseErr(file, 0, "%d distances, want %d for %d cities", len(vals), want, n)
	}
	D := mat.NewSymDense(n, nil)
	k := 0
	for j := range n {
		for i := j + 1; i < n; i++ {
			D.SetSym(i, j, vals[k])
			k++
		}
	}
	return D, nil
}
