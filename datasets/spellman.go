package datasets

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// spellmanGroups names the experiment groups after the marker column that
// heads them (the first group, cln3/clb2 induction, has its "clb" marker
// in the middle).
var spellmanGroups = map[string]string{
	"clb": "cln3/clb2", "alpha": "alpha", "cdc15": "cdc15", "cdc28": "cdc28", "elu": "elu",
}

// Spellman loads the yeast cell-cycle microarrays of Spellman et al. (1998)
// as Fig 1.14 uses them: data points are the 77 arrays, features the 6178
// genes, so Y is 77×6178 (log ratios) with the 5.9% missing values set to 0
// (which reproduces the book's variance 0.694; see SpellmanGeneMeans).
// Labels are the experiment groups (cln3/clb2 4, alpha 18, cdc15 24,
// cdc28 17, elu 14 arrays), RowNames the arrays and ColNames the genes.
func Spellman() (*Dataset, error) { return spellman(fillZero) }

// SpellmanGeneMeans is Spellman with each missing value replaced by the
// mean of its gene's observed values (0 for a gene never observed).
func SpellmanGeneMeans() (*Dataset, error) { return spellman(fillGeneMean) }

// SpellmanWithMissing is Spellman with NaN where a value is missing, for
// methods that handle missing data (and for drawing them); dimred's
// methods reject NaN.
func SpellmanWithMissing() (*Dataset, error) { return spellman(fillNaN) }

type fillRule int

const (
	fillZero fillRule = iota
	fillGeneMean
	fillNaN
)

func spellman(rule fillRule) (*Dataset, error) {
	const name = "combined.txt"
	b, err := readFile("spellman", name)
	if err != nil {
		return nil, err
	}
	sp, err := parseSpellman("spellman/"+name, b)
	if err != nil {
		return nil, err
	}
	n, p := len(sp.arrays), len(sp.genes)
	Y := mat.NewDense(n, p, nil)
	missing := 0
	for g := range p {
		fill, cnt := 0.0, 0
		if rule == fillNaN {
			fill = math.NaN()
		}
		if rule == fillGeneMean {
			for a := range n {
				if sp.observed[g*n+a] {
					fill += sp.values[g*n+a]
					cnt++
				}
			}
			if cnt > 0 {
				fill /= float64(cnt)
			}
		}
		for a := range n {
			if sp.observed[g*n+a] {
				Y.Set(a, g, sp.values[g*n+a])
			} else {
				Y.Set(a, g, fill)
				missing++
			}
		}
	}
	fillText := map[fillRule]string{fillZero: "0", fillGeneMean: "the gene's mean over its observed arrays", fillNaN: "NaN"}[rule]
	return &Dataset{
		Name:       "spellman",
		Y:          Y,
		Labels:     sp.labels,
		LabelNames: sp.groups,
		RowNames:   sp.arrays,
		ColNames:   sp.genes,
		Citation:   "P. T. Spellman, G. Sherlock, M. Q. Zhang, V. R. Iyer, K. Anders, M. B. Eisen, P. O. Brown, D. Botstein and B. Futcher (1998). Comprehensive identification of cell cycle-regulated genes of the yeast Saccharomyces cerevisiae by microarray hybridization. Molecular Biology of the Cell 9, 3273-3297.",
		License:    "Published supplementary data of Spellman et al. (1998), redistributed for research use.",
		Source:     sources("spellman", name),
		Details: fmt.Sprintf("combined.txt transposed: %d arrays × %d genes (log ratios); the %d empty group-marker columns dropped; %d of %d values (%.1f%%) missing, filled with %s.",
			n, p, len(sp.groups), missing, n*p, 100*float64(missing)/float64(n*p), fillText),
	}, nil
}

type spellmanTable struct {
	arrays, genes, groups []string
	labels                []int
	values                []float64 // gene-major: values[g*n+a]
	observed              []bool
}

// parseSpellman parses the tab-separated table: a header (empty first
// field, then array names), one row per gene (name, then one value per
// column, empty = missing). Columns empty in every row are group markers;
// each array belongs to the group of the marker before it (arrays before
// the first marker join the first group).
func parseSpellman(file string, b []byte) (*spellmanTable, error) {
	l := lines{b: b}
	var header []string
	for l.next() {
		if strings.TrimSpace(l.text) != "" {
			header = strings.Split(l.text, "\t")
			break
		}
	}
	if len(header) < 2 {
		return nil, parseErr(file, l.n, "no header of array names")
	}
	cols := len(header) - 1
	var genes []string
	var values []float64
	var observed []bool
	any := make([]bool, cols)
	for l.next() {
		if strings.TrimSpace(l.text) == "" {
			continue
		}
		fields := strings.Split(l.text, "\t")
		if len(fields) != cols+1 {
			return nil, parseErr(file, l.n, "%d fields, want %d (gene and %d columns)", len(fields), cols+1, cols)
		}
		if (len(genes)+1)*cols > maxCells {
			return nil, parseErr(file, l.n, "too many genes")
		}
		genes = append(genes, strings.TrimSpace(fields[0]))
		for k, f := range fields[1:] {
			f = strings.TrimSpace(f)
			if f == "" {
				values = append(values, 0)
				observed = append(observed, false)
				continue
			}
			v, ok := parseFloat(f)
			if !ok {
				return nil, parseErr(file, l.n, "column %d (%s): %s is not a number", k+2, quote(header[k+1]), quote(f))
			}
			values = append(values, v)
			observed = append(observed, true)
			any[k] = true
		}
	}
	if len(genes) == 0 {
		return nil, parseErr(file, 0, "no genes")
	}
	t := &spellmanTable{genes: genes}
	var keep []int
	markers := 0
	for k := range cols {
		name := strings.TrimSpace(header[k+1])
		if !any[k] {
			g := name
			if s, ok := spellmanGroups[name]; ok {
				g = s
			}
			t.groups = append(t.groups, g)
			markers++
			continue
		}
		keep = append(keep, k)
		t.arrays = append(t.arrays, name)
		t.labels = append(t.labels, max(0, markers-1))
	}
	if len(t.groups) == 0 {
		t.groups = []string{"all"}
	}
	for i, lab := range t.labels {
		if lab >= len(t.groups) {
			return nil, parseErr(file, 1, "array %s has no group", quote(t.arrays[i]))
		}
	}
	if len(keep) == 0 {
		return nil, parseErr(file, 0, "no data columns")
	}
	n := len(keep)
	t.values = make([]float64, len(genes)*n)
	t.observed = make([]bool, len(genes)*n)
	for g := range genes {
		for a, k := range keep {
			t.values[g*n+a] = values[g*cols+k]
			t.observed[g*n+a] = observed[g*cols+k]
		}
	}
	return t, nil
}
