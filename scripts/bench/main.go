// Command bench times dimred against scikit-learn/SciPy on the tasks both
// do, side by side in one run, and checks that they agree.
//
//	go run ./scripts/bench                      # full size ladders (minutes)
//	go run -tags openblas ./scripts/bench       # the same with OpenBLAS under gonum
//	go run ./scripts/bench -smoke               # tiny sizes, agreement only (scripts/test)
//
// Every task's input is written once to .npy files that both sides read;
// loading is not timed. For each task the two sides run alternately
// (dimred, then Python, -repeats times) and the minimum of each is kept,
// so load on the machine falls on both. The Python side is
// scripts/bench/sk.py run by -python (Debian's python3-sklearn; its
// python3 is /usr/bin/python3). The table gives theirs/ours: above 1,
// dimred is faster.
//
// Without -smoke the run is recorded in scripts/bench/results-<blas>.json
// (blas = gonum or openblas), scripts/bench/RESULTS.md is rewritten from
// every results file present, and so is the table between the
// bench:begin/bench:end markers of README.md.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/dimredbook/book/dimred/linalg"

	"gonum.org/v1/gonum/mat"
)

type row struct {
	Name     string  `json:"name"`
	Go       float64 `json:"go_seconds"`
	Py       float64 `json:"py_seconds"`
	Ratio    float64 `json:"ratio"`
	Agree    bool    `json:"agree"`
	Detail   string  `json:"detail"`
	GoGFlops float64 `json:"go_gflops,omitempty"`
	PyGFlops float64 `json:"py_gflops,omitempty"`
}

type run struct {
	Build     string            `json:"build"` // gonum or openblas
	Date      string            `json:"date"`
	Machine   map[string]string `json:"machine"`
	LoadStart string            `json:"load_start"`
	LoadEnd   string            `json:"load_end"`
	Repeats   int               `json:"repeats"`
	Rows      []row             `json:"rows"`
}

func main() {
	smoke := flag.Bool("smoke", false, "tiny sizes, agreement only; nothing is written")
	repeats := flag.Int("repeats", 3, "timed runs per side; the minimum is kept")
	python := flag.String("python", "/usr/bin/python3", "Python with numpy, SciPy and scikit-learn")
	only := flag.String("only", "", "run only the tasks whose name contains this (not recorded)")
	flag.Parse()
	// dimred's BLAS for every gonum product of the run, as a user who
	// wants speed would (importing dimred alone changes no global state).
	linalg.UseFastBLAS()
	if err := bench(*smoke, *repeats, *python, *only); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// pySide is the persistent scikit-learn process.
type pySide struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

func startPython(python string) (*pySide, error) {
	if _, err := exec.LookPath(python); err != nil {
		return nil, err
	}
	check := exec.Command(python, "-c", "import sklearn, scipy, numpy")
	if out, err := check.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("%s cannot import scikit-learn: %v: %s", python, err, strings.TrimSpace(string(out)))
	}
	cmd := exec.Command(python, "scripts/bench/sk.py")
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &pySide{cmd, in, bufio.NewReader(out)}, nil
}

func (p *pySide) ask(line string, v any) error {
	if _, err := fmt.Fprintln(p.in, line); err != nil {
		return err
	}
	s, err := p.out.ReadString('\n')
	if err != nil {
		return fmt.Errorf("python side: %v", err)
	}
	var e struct{ Error string }
	if json.Unmarshal([]byte(s), &e) == nil && e.Error != "" {
		return errors.New("python side: " + e.Error)
	}
	return json.Unmarshal([]byte(s), v)
}

func (p *pySide) close() { p.in.Close(); p.cmd.Wait() }

func writeInputs(dir string, params map[string]any, kv ...any) error {
	if params == nil {
		params = map[string]any{}
	}
	b, _ := json.Marshal(params)
	if err := os.WriteFile(filepath.Join(dir, "params.json"), b, 0o644); err != nil {
		return err
	}
	for i := 0; i < len(kv); i += 2 {
		if err := writeNpy(filepath.Join(dir, kv[i].(string)+".npy"), kv[i+1].(*mat.Dense)); err != nil {
			return err
		}
	}
	return nil
}

func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	return strings.Join(f[:3], " ")
}

func machine(py map[string]string) map[string]string {
	m := map[string]string{
		"cores":      fmt.Sprint(runtime.NumCPU()),
		"gomaxprocs": fmt.Sprint(runtime.GOMAXPROCS(0)),
		"go":         runtime.Version(),
		"go_blas":    linalg.BLASImplementation(),
		"os":         runtime.GOOS + "/" + runtime.GOARCH,
	}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(l, "model name") {
				m["cpu"] = strings.TrimSpace(strings.SplitN(l, ":", 2)[1])
				break
			}
		}
	}
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		l := strings.SplitN(string(b), "\n", 2)[0]
		m["memory"] = strings.TrimSpace(strings.TrimPrefix(l, "MemTotal:"))
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == "gonum.org/v1/gonum" {
				m["gonum"] = d.Version
			}
		}
	}
	m["OPENBLAS_CORETYPE"] = os.Getenv("OPENBLAS_CORETYPE")
	for k, v := range py {
		m["py_"+k] = v
	}
	return m
}

func bench(smoke bool, repeats int, python, only string) error {
	if _, err := os.Stat("scripts/bench/sk.py"); err != nil {
		return errors.New("run from the repository root (scripts/bench/sk.py not found)")
	}
	py, err := startPython(python)
	if err != nil {
		fmt.Printf("bench: Python side unavailable (%v).\n", err)
		fmt.Println("bench: install Debian's python3-sklearn (apt-get install python3-sklearn, as scripts/setup does)")
		fmt.Println("bench: or pass -python with an interpreter that has numpy, SciPy and scikit-learn; nothing compared.")
		return nil
	}
	defer py.close()
	var pyInfo map[string]any
	if err := py.ask("info", &pyInfo); err != nil {
		return err
	}
	pyStr := map[string]string{}
	for k, v := range pyInfo {
		pyStr[k] = fmt.Sprint(v)
	}
	build := "gonum"
	if strings.HasPrefix(linalg.BLASImplementation(), "OpenBLAS") {
		build = "openblas"
	}
	r := run{Build: build, Date: time.Now().UTC().Format("2006-01-02 15:04 MST"), Machine: machine(pyStr),
		LoadStart: loadAvg(), Repeats: repeats}
	if smoke {
		repeats = 1
	}
	fmt.Printf("bench: %s build; Go BLAS %s; Python BLAS %s; load %s\n", build, r.Machine["go_blas"], r.Machine["py_blas"], r.LoadStart)
	tmp, err := os.MkdirTemp("", "dimred-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	failed := 0
	for ti, t := range tasks(!smoke) {
		if only != "" && !strings.Contains(t.name, only) {
			continue
		}
		dir := filepath.Join(tmp, fmt.Sprint(ti))
		if err := os.Mkdir(dir, 0o755); err != nil {
			return err
		}
		if err := t.gen(dir); err != nil {
			return fmt.Errorf("%s: writing inputs: %v", t.name, err)
		}
		runGo, check, err := t.setup(dir)
		if err != nil {
			return fmt.Errorf("%s: %v", t.name, err)
		}
		var goT, pyT []float64
		for rep := 0; rep < max(repeats, t.repeats); rep++ {
			runtime.GC()
			start := time.Now()
			if err := runGo(); err != nil {
				return fmt.Errorf("%s: dimred: %v", t.name, err)
			}
			goT = append(goT, time.Since(start).Seconds())
			var res struct{ Seconds float64 }
			if t.ext != nil {
				res.Seconds, err = t.ext(dir)
			} else {
				err = py.ask(t.py+" "+dir, &res)
			}
			if err != nil {
				return fmt.Errorf("%s: %v", t.name, err)
			}
			pyT = append(pyT, res.Seconds)
		}
		detail, ok, err := check(dir)
		if err != nil {
			return fmt.Errorf("%s: comparing: %v", t.name, err)
		}
		rw := row{Name: t.name, Go: slices.Min(goT), Py: slices.Min(pyT), Agree: ok, Detail: detail}
		rw.Ratio = rw.Py / rw.Go
		if t.flops > 0 {
			rw.GoGFlops, rw.PyGFlops = t.flops/rw.Go/1e9, t.flops/rw.Py/1e9
		}
		if !ok {
			failed++
		}
		r.Rows = append(r.Rows, rw)
		mark := "agree"
		if !ok {
			mark = "DISAGREE"
		}
		if smoke {
			fmt.Printf("bench: %-70s %s: %s\n", t.name, mark, detail)
		} else {
			fmt.Printf("bench: %-70s %8.3f s %8.3f s %6.2f×  %s: %s\n", t.name, rw.Go, rw.Py, rw.Ratio, mark, detail)
		}
		os.RemoveAll(dir)
	}
	r.LoadEnd = loadAvg()
	disagree := error(nil)
	if failed > 0 {
		disagree = fmt.Errorf("%d task(s) disagree with scikit-learn/SciPy", failed)
	}
	if smoke {
		if disagree != nil {
			return disagree
		}
		fmt.Printf("bench: smoke run: %d tasks agree with scikit-learn/SciPy\n", len(r.Rows))
		return nil
	}
	fmt.Print(table(r))
	if only != "" {
		return nil // a partial run is not recorded
	}
	b, _ := json.MarshalIndent(r, "", "  ")
	if err := os.WriteFile(fmt.Sprintf("scripts/bench/results-%s.json", build), append(b, '\n'), 0o644); err != nil {
		return err
	}
	if err := writeReports(); err != nil {
		return err
	}
	return disagree // recorded, with the disagreement in the table
}
