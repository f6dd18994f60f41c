package glasso

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"
)

// robotData reads the robot WiFi training set (Ferris, Fox & Lawrence 2007)
// from $DIMRED_DATA/robot_wireless/uw-floor.txt, preprocessed as in the
// paper's experiments: one frame per timestamp in order of appearance, one
// column per access point (MACs sorted), unheard = −92 dBm, (s + 85)/15,
// first 215 frames: 215×30. It skips the test when the data are absent
// (fails if DIMRED_REQUIRE_DATA=1). This package may not import the
// repository's datasets package, hence the small parser.
func robotData(tb testing.TB) *mat.Dense {
	tb.Helper()
	dir := os.Getenv("DIMRED_DATA")
	b, err := os.ReadFile(filepath.Join(dir, "robot_wireless", "uw-floor.txt"))
	if dir == "" || err != nil {
		if os.Getenv("DIMRED_REQUIRE_DATA") == "1" {
			tb.Fatalf("robot data: DIMRED_DATA=%q: %v", dir, err)
		}
		tb.Skip("robot data not found; set DIMRED_DATA")
	}
	type obs struct {
		f   int
		mac string
		s   float64
	}
	var all []obs
	frame := map[string]int{}
	macs := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 5 {
			continue
		}
		s, err := strconv.ParseFloat(f[4], 64)
		if err != nil {
			tb.Fatal(err)
		}
		id, ok := frame[f[0]]
		if !ok {
			id = len(frame)
			frame[f[0]] = id
		}
		macs[f[1]] = true
		all = append(all, obs{id, f[1], s})
	}
	var ms []string
	for m := range macs {
		ms = append(ms, m)
	}
	sort.Strings(ms)
	col := map[string]int{}
	for j, m := range ms {
		col[m] = j
	}
	const n = 215
	y := mat.NewDense(n, len(ms), nil)
	for i := 0; i < n; i++ {
		for j := range ms {
			y.Set(i, j, (-92.0+85)/15)
		}
	}
	for _, o := range all {
		if o.f < n {
			y.Set(o.f, col[o.mac], (o.s+85)/15)
		}
	}
	return y
}

// DRILL on the robot data (paper Fig 6c: k = 7, ρ = 0): the KKT conditions
// hold at the paper's tolerance and at a tight one.
func TestRobotDRILL(t *testing.T) {
	y := robotData(t)
	if r, c := y.Dims(); r != 215 || c != 30 {
		t.Fatalf("robot data %d×%d, want 215×30", r, c)
	}
	S := secondMoment(y)
	g := knn(y, 7)
	tols := []float64{1e-4, 1e-8}
	if testing.Short() {
		tols = tols[:1]
	}
	for _, tol := range tols {
		start := time.Now()
		res, err := Solve(S, Penalty{Graph: g}, &Settings{Tol: tol, MaxIter: 20000})
		el := time.Since(start)
		if err != nil {
			t.Fatalf("Tol %v: %v", tol, err)
		}
		t.Logf("Tol %v: %d sweeps, %v, KKT %+v", tol, res.Iterations, el, res.KKT)
		if tol == 1e-8 {
			checkKKT(t, "robot k=7", S, g, constRho(0), 0, res, 1e-6)
		}
	}
}
