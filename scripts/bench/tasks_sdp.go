package main

import (
	"bufio"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/dimredbook/book/datasets"
	"github.com/dimredbook/book/dimred"

	"gonum.org/v1/gonum/mat"
)

// The MVU rows compare dimred's semidefinite programme with CSDP
// (Borchers 1999; Debian's coinor-csdp), the solver of Weinberger's
// reference MATLAB code, on the same programme: the anchored form that
// dimred solves (internal/sdp, mvuProblem), with X the (n−1)×(n−1) Gram
// matrix of the differences to the last point,
//
//	maximise ⟨I − 11ᵀ/n, X⟩  s.t.  X_ii − 2X_ij + X_jj = d²_ij/d̄²,  X_ii = d²_in/d̄²,  X ⪰ 0,
//
// (the trace of the centred kernel, with the squared distances divided by
// their mean d̄² as dimred does), written in SDPA sparse format for the
// csdp command. Both stop at the same relative tolerance 1e-7 on primal
// and dual infeasibility and gap (CSDP's axtol, atytol, objtol, which are
// defined as dimred's measures are). The dimred side times a whole Fit
// (neighbour graph, SDP, eigendecomposition of K), CSDP only the solve
// (reading the file included). Each side runs with one thread
// (GOMAXPROCS = 1; OMP_NUM_THREADS = OPENBLAS_NUM_THREADS = 1) and with
// two. The optima must agree: tr K within 1e-6 relative.

const (
	sdpTol     = 1e-7
	sdpK       = 7
	sdpRepeats = 5
)

// sdpTasks returns the MVU-against-CSDP rows (none when csdp is not
// installed: scripts/setup installs it).
func sdpTasks(full bool) []task {
	if _, err := exec.LookPath("csdp"); err != nil {
		fmt.Println("bench: csdp not found (Debian's coinor-csdp; scripts/setup installs it): MVU rows skipped")
		return nil
	}
	sizes := []int{100, 200, 300}
	threads := []int{1, 2}
	if !full {
		sizes, threads = []int{60}, []int{1}
	}
	var ts []task
	for _, n := range sizes {
		for _, data := range []string{"robot WiFi", "noisy half-circle"} {
			for _, th := range threads {
				ts = append(ts, mvuSDPTask(data, n, th))
			}
		}
	}
	return ts
}

// sdpData returns the first n rows of a data set: the robot WiFi signal
// strengths (the 215 training frames followed by the 179 test frames, 30
// access points), or a half-circle of radius one in the first two of 30
// dimensions with N(0, 0.05²) noise in all 30.
func sdpData(data string, n int) (*mat.Dense, error) {
	if data == "robot WiFi" {
		a, err := datasets.RobotWireless()
		if err != nil {
			return nil, err
		}
		b, err := datasets.RobotWirelessTest()
		if err != nil {
			return nil, err
		}
		var y mat.Dense
		y.Stack(a.Y, b.Y)
		if r, _ := y.Dims(); n > r {
			return nil, fmt.Errorf("robot WiFi has %d frames, asked for %d", r, n)
		}
		_, p := y.Dims()
		return mat.DenseCopyOf(y.Slice(0, n, 0, p)), nil
	}
	const p = 30
	rnd := rand.New(rand.NewPCG(7, 17))
	y := mat.NewDense(n, p, nil)
	for i := 0; i < n; i++ {
		a := math.Pi * float64(i) / float64(n-1)
		for c := 0; c < p; c++ {
			y.Set(i, c, 0.05*rnd.NormFloat64())
		}
		y.Set(i, 0, y.At(i, 0)+math.Cos(a))
		y.Set(i, 1, y.At(i, 1)+math.Sin(a))
	}
	return y, nil
}

// writeSDPA writes the anchored MVU programme of an n-point fit's
// constraints in SDPA sparse format (CSDP's primal: maximise ⟨C, X⟩ s.t.
// ⟨A_k, X⟩ = a_k, X ⪰ 0) and returns d̄², the divisor of the squared
// distances: CSDP's objective times d̄² is tr K.
func writeSDPA(path string, n int, cons []dimred.MVUConstraint) (float64, error) {
	var mean float64
	for _, c := range cons {
		mean += c.D2
	}
	mean /= float64(len(cons))
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	w := bufio.NewWriter(f)
	fmt.Fprintf(w, "%d\n1\n%d\n", len(cons), n-1)
	for k, c := range cons {
		if k > 0 {
			w.WriteByte(' ')
		}
		w.WriteString(strconv.FormatFloat(c.D2/mean, 'g', 17, 64))
	}
	w.WriteByte('\n')
	// C = I − 11ᵀ/n on the n−1 anchored points (upper triangle, 1-based).
	off := strconv.FormatFloat(-1/float64(n), 'g', 17, 64)
	for i := 1; i < n; i++ {
		fmt.Fprintf(w, "0 1 %d %d %s\n", i, i, strconv.FormatFloat(1-1/float64(n), 'g', 17, 64))
		for j := i + 1; j < n; j++ {
			fmt.Fprintf(w, "0 1 %d %d %s\n", i, j, off)
		}
	}
	a := n - 1 // the anchor, 0-based
	for k, c := range cons {
		i, j := min(c.I, c.J), max(c.I, c.J)
		fmt.Fprintf(w, "%d 1 %d %d 1\n", k+1, i+1, i+1)
		if j != a {
			fmt.Fprintf(w, "%d 1 %d %d 1\n%d 1 %d %d -1\n", k+1, j+1, j+1, k+1, i+1, j+1)
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return 0, err
	}
	return mean, f.Close()
}

// csdpParams is param.csdp (read by csdp from its working directory, in
// this order): CSDP's defaults except the three tolerances, set to
// dimred's.
var csdpParams = fmt.Sprintf(`axtol=%g
atytol=%g
objtol=%g
pinftol=1.0e8
dinftol=1.0e8
maxiter=100
minstepfrac=0.90
maxstepfrac=0.97
minstepp=1.0e-8
minstepd=1.0e-8
usexzgap=1
tweakgap=0
affine=0
printlevel=1
perturbobj=1
fastmode=0
`, sdpTol, sdpTol, sdpTol)

var csdpPrimal = regexp.MustCompile(`Primal objective value:\s*(\S+)`)

// runCSDP solves dir/mvu.dat-s with csdp on the given number of threads
// and returns its primal objective, wall time, whether it reported only
// partial success (reduced accuracy) and its CPU time (user + system).
func runCSDP(dir string, threads int) (obj, secs float64, partial bool, cpu float64, err error) {
	cmd := exec.Command("csdp", "mvu.dat-s")
	cmd.Dir = dir
	t := strconv.Itoa(threads)
	cmd.Env = append(os.Environ(), "OMP_NUM_THREADS="+t, "OPENBLAS_NUM_THREADS="+t)
	start := time.Now()
	out, err := cmd.Output()
	secs = time.Since(start).Seconds()
	// Exit status 3 is CSDP's "Partial Success: SDP solved with reduced
	// accuracy" (it stopped short of a tolerance); the objective is still
	// compared.
	var ee *exec.ExitError
	if err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 3) {
		return 0, 0, false, 0, fmt.Errorf("csdp: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "Success: SDP solved") {
		return 0, 0, false, 0, fmt.Errorf("csdp did not solve the programme:\n%s", out)
	}
	partial = strings.Contains(string(out), "Partial Success")
	m := csdpPrimal.FindSubmatch(out)
	if m == nil {
		return 0, 0, false, 0, errors.New("csdp: no primal objective in its output")
	}
	obj, err = strconv.ParseFloat(string(m[1]), 64)
	cpu = (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds()
	return obj, secs, partial, cpu, err
}

func mvuSDPTask(data string, n, threads int) task {
	var Y *mat.Dense
	var trace, scale, csdpObj float64
	var csdpPartial bool
	goCPU, csdpCPU := math.Inf(1), math.Inf(1) // minimum CPU seconds per side
	var rep dimred.SDPReport
	th := "1 thread"
	if threads > 1 {
		th = fmt.Sprintf("%d threads", threads)
	}
	t := task{
		name:    fmt.Sprintf("MVU SDP, %s n = %d, k = %d (vs CSDP), %s", data, n, sdpK, th),
		repeats: sdpRepeats,
		gen: func(dir string) error {
			y, err := sdpData(data, n)
			if err != nil {
				return err
			}
			// One untimed fit for the constraints (the graph is
			// deterministic, so the timed fits solve the same programme).
			m := &dimred.MVU{Q: 2, K: sdpK, Tol: sdpTol}
			if err := m.Fit(y); err != nil {
				return err
			}
			if scale, err = writeSDPA(filepath.Join(dir, "mvu.dat-s"), n, m.Constraints()); err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(dir, "param.csdp"), []byte(csdpParams), 0o644); err != nil {
				return err
			}
			Y = y
			return nil
		},
		setup: func(dir string) (func() error, func(string) (string, bool, error), error) {
			run := func() error {
				old := runtime.GOMAXPROCS(threads)
				defer runtime.GOMAXPROCS(old)
				c0 := processCPU()
				m := &dimred.MVU{Q: 2, K: sdpK, Tol: sdpTol}
				if err := m.Fit(Y); err != nil {
					return err
				}
				goCPU = math.Min(goCPU, processCPU()-c0)
				rep = m.SDPReport()
				trace = rep.Objective
				return nil
			}
			check := func(string) (string, bool, error) {
				tc := csdpObj * scale
				d := math.Abs(trace-tc) / math.Abs(tc)
				note := ""
				if csdpPartial {
					note = " (CSDP: partial success, reduced accuracy)"
				}
				return fmt.Sprintf("m = %d; tr K %.10g, CSDP %.10g%s, relative difference %.1e; %d iterations; CPU (min) %.3g s vs CSDP %.3g s, ratio %.2f",
					rep.Constraints, trace, tc, note, d, rep.Iter, goCPU, csdpCPU, csdpCPU/goCPU), d <= 1e-6, nil
			}
			return run, check, nil
		},
	}
	t.ext = func(dir string) (float64, float64, error) {
		obj, secs, partial, cpu, err := runCSDP(dir, threads)
		csdpObj, csdpPartial = obj, partial
		csdpCPU = math.Min(csdpCPU, cpu)
		return secs, cpu, err
	}
	return t
}

// processCPU returns this process's CPU time (user + system) in seconds.
func processCPU() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return math.NaN()
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
