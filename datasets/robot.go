package datasets

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// Robot WiFi preprocessing constants (GPmat lvmLoadData 'robotWireless').
const (
	robotUnobserved = -92 // dBm written for an access point not heard in a frame
	robotOffset     = 85  // Y = (s + 85) / 15
	robotScale      = 15
	robotTrain      = 215 // the first 215 frames are the training set
)

// RobotWireless loads the training part of the robot WiFi data (Ferris,
// Fox & Lawrence 2007): a robot driven around an office floor recording
// the signal strength of 30 access points. One frame per distinct
// timestamp (394 in all), one column per access point MAC (sorted as
// strings), an access point not heard in a frame set to −92 dBm, then
// scaled (s + 85)/15. Y is the first 215 frames, 215×30; T holds the
// robot's ground-truth x, y positions (215×2); ColNames are the MACs.
func RobotWireless() (*Dataset, error) { return robot(true) }

// RobotWirelessTest returns the remaining 179 frames (179×30), the test
// set, preprocessed and laid out exactly as RobotWireless.
func RobotWirelessTest() (*Dataset, error) { return robot(false) }

func robot(train bool) (*Dataset, error) {
	const name = "uw-floor.txt"
	b, err := readFile("robot_wireless", name)
	if err != nil {
		return nil, err
	}
	Y, T, macs, times, err := parseRobot("robot_wireless/"+name, b)
	if err != nil {
		return nil, err
	}
	n, p := Y.Dims()
	if n <= robotTrain {
		return nil, parseErr("robot_wireless/"+name, 0, "%d frames, need more than %d", n, robotTrain)
	}
	lo, hi, split := 0, robotTrain, "training"
	if !train {
		lo, hi, split = robotTrain, n, "test"
	}
	rows := make([]string, hi-lo)
	for i := range rows {
		rows[i] = fmt.Sprintf("%.3f", times[lo+i])
	}
	return &Dataset{
		Name:     "robot_wireless",
		Y:        mat.DenseCopyOf(Y.Slice(lo, hi, 0, p)),
		T:        mat.DenseCopyOf(T.Slice(lo, hi, 0, 2)),
		RowNames: rows,
		ColNames: macs,
		Citation: "B. Ferris, D. Fox and N. D. Lawrence (2007). WiFi-SLAM using Gaussian process latent variable models. IJCAI 2007, 2480-2485.",
		License:  "Distributed by the authors with GPmat / the datasets mirror for research use.",
		Source:   sources("robot_wireless", name),
		Details: fmt.Sprintf("%d frames (distinct timestamps) × %d access points (MACs sorted as strings); unobserved = %d dBm; Y = (s + %d)/%d; frames %d–%d (1-based) are the %s set; T = ground-truth x, y.",
			n, p, robotUnobserved, robotOffset, robotScale, lo+1, hi, split),
	}, nil
}

// parseRobot parses lines "unixtime mac x y dBm" into the scaled n×m
// signal matrix (frames in order of first appearance, MACs sorted), the n×2
// positions, the MACs and the frame times.
func parseRobot(file string, b []byte) (Y, T *mat.Dense, macs []string, times []float64, err error) {
	type obs struct {
		frame int
		mac   string
		s     float64
	}
	var all []obs
	frameOf := map[float64]int{}
	var pos [][2]float64
	macSet := map[string]bool{}
	l := lines{b: b}
	for l.next() {
		fields := strings.Fields(l.text)
		if len(fields) == 0 {
			continue
		}
		if len(fields) != 5 {
			return nil, nil, nil, nil, parseErr(file, l.n, "%d fields, want 5 (time mac x y dBm)", len(fields))
		}
		var v [4]float64
		for k, idx := range []int{0, 2, 3, 4} {
			x, ok := parseFloat(fields[idx])
			if !ok {
				return nil, nil, nil, nil, parseErr(file, l.n, "field %d: %s is not a number", idx+1, quote(fields[idx]))
			}
			v[k] = x
		}
		mac := fields[1]
		f, seen := frameOf[v[0]]
		if !seen {
			f = len(times)
			frameOf[v[0]] = f
			times = append(times, v[0])
			pos = append(pos, [2]float64{v[1], v[2]})
		} else if pos[f] != [2]float64{v[1], v[2]} {
			return nil, nil, nil, nil, parseErr(file, l.n, "position (%v, %v) differs from (%v, %v) earlier in the same frame", v[1], v[2], pos[f][0], pos[f][1])
		}
		if !macSet[mac] {
			if len(macSet) >= 4096 {
				return nil, nil, nil, nil, parseErr(file, l.n, "too many access points")
			}
			macSet[mac] = true
		}
		if len(times)*len(macSet) > maxCells {
			return nil, nil, nil, nil, parseErr(file, l.n, "too many frames")
		}
		all = append(all, obs{f, mac, v[3]})
	}
	if len(all) == 0 {
		return nil, nil, nil, nil, parseErr(file, 0, "no data")
	}
	for m := range macSet {
		macs = append(macs, m)
	}
	sort.Strings(macs)
	col := map[string]int{}
	for j, m := range macs {
		col[m] = j
	}
	n, p := len(times), len(macs)
	raw := make([]float64, n*p)
	for i := range raw {
		raw[i] = math.NaN()
	}
	for _, o := range all {
		raw[o.frame*p+col[o.mac]] = o.s
	}
	Y = mat.NewDense(n, p, nil)
	T = mat.NewDense(n, 2, nil)
	for i := range n {
		for j := range p {
			s := raw[i*p+j]
			if math.IsNaN(s) {
				s = robotUnobserved
			}
			Y.Set(i, j, (s+robotOffset)/robotScale)
		}
		T.Set(i, 0, pos[i][0])
		T.Set(i, 1, pos[i][1])
	}
	return Y, T, macs, times, nil
}
