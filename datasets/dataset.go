package datasets

import (
	"gonum.org/v1/gonum/mat"
)

// Dataset is a loaded data set. Y holds the data, n×p with one observation
// per row, after the book's preprocessing; the other fields are filled where
// the data set has them (nil or empty otherwise).
type Dataset struct {
	Name string
	// Y is the n×p data matrix. Distance-only data sets (EuropeRoads,
	// Eurodist) have Y == nil and their data in D.
	Y *mat.Dense
	// Labels are class indices 0..len(LabelNames)-1, one per row of Y.
	Labels     []int
	LabelNames []string
	RowNames   []string // one per observation, where the data name them
	ColNames   []string // one per feature, where the data name them
	// T holds intrinsic or ground-truth coordinates, one row per
	// observation: robot x,y positions; city latitude, longitude.
	T *mat.Dense
	// D is an n×n distance matrix (EuropeRoads: road km; Eurodist: km).
	D *mat.SymDense

	// Stick man only: the 34 marker names, the skeleton's connections as
	// pairs of marker indices (column k of the X block is marker k, of the
	// Y block marker k, of the Z block marker k), and the original frame
	// index (0-based, of the 217 captured) of each row of Y.
	Markers []string
	Edges   [][2]int
	Frames  []int

	Citation string
	License  string
	Source   string // canonical URLs of the files
	Details  string // what the preprocessing did
}

// N returns the number of observations (rows of Y, or of D).
func (d *Dataset) N() int {
	if d.Y != nil {
		r, _ := d.Y.Dims()
		return r
	}
	if d.D != nil {
		return d.D.SymmetricDim()
	}
	return 0
}

// ClassCounts returns the number of rows with each label.
func (d *Dataset) ClassCounts() []int {
	c := make([]int, len(d.LabelNames))
	for _, l := range d.Labels {
		if l >= 0 && l < len(c) {
			c[l]++
		}
	}
	return c
}

// sources joins the URLs of a dataset's registered files.
func sources(dataset string, files ...string) string {
	s := ""
	for _, name := range files {
		f, err := Lookup(dataset, name)
		if err != nil || f.URL == "" {
			continue
		}
		if s != "" {
			s += " "
		}
		s += f.URL
	}
	return s
}
