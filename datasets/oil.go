package datasets

import (
	"fmt"
)

// OilLabelNames are the three flow regimes in the order of the label
// files' one-hot columns.
var OilLabelNames = []string{"homogeneous", "annular", "stratified"}

// Oil loads the three-phase oil-flow data (Bishop & James 1993): 1000
// simulated measurements of 12 gamma-densitometry beams across a pipe, each
// labelled with its flow regime. split is "train" (DataTrn, the set the book
// uses; class counts 343/316/341), "test" (DataTst) or "validation"
// (DataVdn). Y is 1000×12, unscaled; Labels are 0, 1, 2 =
// homogeneous, annular, stratified: the one-hot columns of the label files
// are [1 0 0] homogeneous, [0 1 0] annular, [0 0 1] stratified, as the
// data's description (inverseprobability.com/3PhaseData.html) documents.
func Oil(split string) (*Dataset, error) {
	var stem string
	switch split {
	case "train", "training":
		stem = "Trn"
	case "test":
		stem = "Tst"
	case "validation", "valid":
		stem = "Vdn"
	default:
		return nil, fmt.Errorf("datasets: Oil split %q: want \"train\", \"test\" or \"validation\"", split)
	}
	dataFile, lblFile := "Data"+stem+".txt", "Data"+stem+"Lbls.txt"
	b, err := readFile("oil", dataFile)
	if err != nil {
		return nil, err
	}
	Y, err := parseMatrix("oil/"+dataFile, b, 12)
	if err != nil {
		return nil, err
	}
	b, err = readFile("oil", lblFile)
	if err != nil {
		return nil, err
	}
	labels, err := parseOneHot("oil/"+lblFile, b, 3)
	if err != nil {
		return nil, err
	}
	if n, _ := Y.Dims(); n != len(labels) {
		return nil, parseErr("oil/"+lblFile, 0, "%d labels for %d data rows", len(labels), n)
	}
	cols := make([]string, 12)
	for i := range cols {
		cols[i] = fmt.Sprintf("beam %d", i+1)
	}
	return &Dataset{
		Name:       "oil",
		Y:          Y,
		Labels:     labels,
		LabelNames: append([]string(nil), OilLabelNames...),
		ColNames:   cols,
		Citation:   "C. M. Bishop and G. D. James (1993). Analysis of multiphase flows using dual-energy gamma densitometry and neural networks. Nuclear Instruments and Methods in Physics Research A327, 580-593.",
		License:    "Distributed by the authors for research use (Netlab / GTM demonstrations).",
		Source:     sources("oil", dataFile, lblFile),
		Details:    "Simulated three-phase (oil, water, gas) pipe flow, 12 dual-energy gamma-densitometry beam measurements, 3 flow regimes. Y as stored (no scaling); Labels from the one-hot label file (" + split + " split).",
	}, nil
}
