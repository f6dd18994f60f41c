package figures

// Beyond the book: the GP-LVM chapter the draft promises. Figures X7.2–X7.4
// show the GP-LVM fits of the comparison (X7.1) one data set at a time.

import (
	"fmt"
	"image/color"

	"github.com/dimredbook/book/datasets"
	"github.com/dimredbook/book/dimred"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

func init() {
	Register("X7.2", 7, FigX7_2OilSparseGPLVM)
	Register("X7.3", 7, FigX7_3StickGPLVM)
	Register("X7.4", 7, FigX7_4RobotGPLVM)
}

// FigX7_2OilSparseGPLVM is figure X7.2: the sparse GP-LVM of the oil data
// (100 inducing points, variational bound) beside PCA, the inducing inputs
// Z marked by black squares.
func FigX7_2OilSparseGPLVM() (*Figure, error) {
	scores, err := compareOnce()
	if err != nil {
		return nil, err
	}
	pca, err := compareFind(scores, "oil", "PCA")
	if err != nil {
		return nil, err
	}
	gp, err := compareFind(scores, "oil", "GPLVM")
	if err != nil {
		return nil, err
	}
	Z := gp.Z
	if Z == nil {
		return nil, fmt.Errorf("figures: the oil GP-LVM of the comparison has no inducing inputs")
	}
	right := compareScatter(gp, datasets.OilLabelNames)
	right.Title.Text = fmt.Sprintf("(b) sparse GP-LVM, m = 100: %d errors", gp.NNErrors)
	zr, _ := Z.Dims()
	zx, zy := make([]float64, zr), make([]float64, zr)
	for i := range zr {
		zx[i], zy[i] = Z.At(i, 0), Z.At(i, 1)
	}
	right.Add(scatter(zx, zy, color.Black, 2.5, draw.BoxGlyph{}))
	left := compareScatter(pca, datasets.OilLabelNames)
	left.Title.Text = fmt.Sprintf("(a) PCA: %d errors", pca.NNErrors)
	return &Figure{
		ID: "X7.2",
		Caption: "The oil data (n = 1000) (a) by PCA and (b) by the sparse GP-LVM with 100 inducing points (Titsias's variational bound), " +
			"RBF + bias kernel, 300 L-BFGS iterations from the PCA start; black squares are the optimised inducing inputs. " +
			"Nearest-neighbour errors in the titles (GTM 30×30 in the book's Fig 6.10(c): 11).",
		Data:    "oil",
		Panels:  []*plot.Plot{left, right},
		Numbers: []Number{Ours("PCA 1-NN errors", float64(pca.NNErrors)), Ours("sparse GP-LVM 1-NN errors", float64(gp.NNErrors)), Ours("sparse GP-LVM log-likelihood bound", gp.LogLikelihood)},
	}, nil
}

// FigX7_3StickGPLVM is figure X7.3: the stick man's 55 frames in two
// dimensions by PCA, the GP-LVM and the back-constrained GP-LVM, frames
// joined in time order.
func FigX7_3StickGPLVM() (*Figure, error) {
	scores, err := compareOnce()
	if err != nil {
		return nil, err
	}
	var panels []*plot.Plot
	var nums []Number
	for i, name := range []string{"PCA", "GPLVM", "GPLVM (back-constrained)"} {
		s, err := compareFind(scores, "stick man", name)
		if err != nil {
			return nil, err
		}
		p := newPlot(fmt.Sprintf("(%c) %s", 'a'+i, name), "", "")
		n, _ := s.X.Dims()
		xs, ys := make([]float64, n), make([]float64, n)
		for j := range n {
			xs[j], ys[j] = s.X.At(j, 0), s.X.At(j, 1)
		}
		p.Add(line(xs, ys, color.Gray{Y: 150}, 0.8))
		p.Add(scatter(xs, ys, LabelColour(0), 2, draw.CircleGlyph{}))
		panels = append(panels, p)
		nums = append(nums, Ours(name+" trustworthiness T(5)", s.T5))
	}
	return &Figure{
		ID: "X7.3",
		Caption: "The stick man's run (55 frames) in two dimensions: (a) PCA, (b) the GP-LVM (exact, RBF + bias kernel), " +
			"(c) the GP-LVM with an RBF back-constraint; consecutive frames joined. The run is periodic: a good embedding draws a loop.",
		Data:   "stick",
		Panels: panels,
		Width:  3 * 8 * vg.Centimeter, Height: 8 * vg.Centimeter,
		Numbers: nums,
	}, nil
}

// FigX7_4RobotGPLVM is figure X7.4: robot WiFi embeddings aligned to the
// true path by Procrustes analysis with scale, PCA against the GP-LVM.
func FigX7_4RobotGPLVM() (*Figure, error) {
	scores, err := compareOnce()
	if err != nil {
		return nil, err
	}
	robot, err := datasets.RobotWireless()
	if err != nil {
		return nil, err
	}
	T := robot.T
	n, _ := T.Dims()
	tx, ty := make([]float64, n), make([]float64, n)
	for i := range n {
		tx[i], ty[i] = T.At(i, 0), T.At(i, 1)
	}
	var panels []*plot.Plot
	var nums []Number
	for i, name := range []string{"PCA", "GPLVM", "GPLVM (back-constrained)"} {
		s, err := compareFind(scores, "robot WiFi", name)
		if err != nil {
			return nil, err
		}
		r, err := dimred.Procrustes(s.X, T, &dimred.ProcrustesOptions{Scale: true})
		if err != nil {
			return nil, err
		}
		ax, ay := make([]float64, n), make([]float64, n)
		for j := range n {
			ax[j], ay[j] = r.Aligned.At(j, 0), r.Aligned.At(j, 1)
		}
		p := newPlot(fmt.Sprintf("(%c) %s: RMS %.2f", 'a'+i, name, r.RMS), "x", "y")
		p.Add(line(tx, ty, color.Gray{Y: 120}, 1))
		p.Add(line(ax, ay, LabelColour(1), 0.8))
		p.Add(scatter(ax, ay, LabelColour(1), 1.5, draw.CircleGlyph{}))
		panels = append(panels, p)
		nums = append(nums, Ours(name+" Procrustes RMS", r.RMS))
	}
	return &Figure{
		ID: "X7.4",
		Caption: "Robot WiFi (215 frames × 30 access points): two-dimensional embeddings aligned to the true path (grey) by Procrustes " +
			"analysis with scale — (a) PCA, (b) the GP-LVM, (c) the back-constrained GP-LVM — with the RMS distance to the path.",
		Data:   "robot_wireless",
		Panels: panels,
		Width:  3 * 8 * vg.Centimeter, Height: 8 * vg.Centimeter,
		Numbers: nums,
	}, nil
}
