// Command bench times dimred against scikit-learn/SciPy on the tasks both
// do, side by side in one run, and checks that they agree.
//
//	go run ./scripts/bench                      # full size ladders (minutes)
//	go run -tags openblas ./scripts/bench       # the same with OpenBLAS under gonum
//	go run ./scripts/bench -smoke               # tiny sizes, agreement only (scripts/test)
//	go run ./scripts/bench -threads 1           # per core: one thread on each side
//	go run ./scripts/bench -ne [-threads 1]     # only t-SNE and UMAP at 10⁴–5·10⁴ points (~40 min)
//	go run ./scripts/bench -report              # RESULTS.md and README's table from the results files
//
// Every task's input is written once to .npy files that both sides read;
// loading is not timed. For each task the two sides run alternately
// (dimred, then Python, -repeats times) and the minimum of each is kept,
// so load on the machine falls on both. The Python side is
// scripts/bench/sk.py run by -python (Debian's python3-sklearn; its
// python3 is /usr/bin/python3). The table gives theirs/ours: above 1,
// dimred is faster.
//
// -threads N pins both sides to N threads: the Go side runs with
// GOMAXPROCS=N, the Python side (and, in the openblas build, the Go side's
// OpenBLAS) with OMP_NUM_THREADS, OPENBLAS_NUM_THREADS, MKL_NUM_THREADS and
// NUMBA_NUM_THREADS = N. These are read when the libraries load, so the
// driver re-executes itself with them set before anything runs. The
// default (0) leaves every side at its own default (all cores).
//
// -ne runs the neighbour-embedding set instead of the default rows: t-SNE
// and UMAP on USPS and clustered data of 10 000 and 50 000 points, which
// the default run leaves out. They take minutes each, so the set is timed
// once per side (-repeats is ignored) and recorded in its own file.
//
// Without -smoke the run is recorded in scripts/bench/results-<blas>.json
// (blas = gonum or openblas; results-<blas>-<N>thread.json under
// -threads N; -ne adds the suffix -ne), scripts/bench/RESULTS.md is rewritten from
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
	"strconv"
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
	GoCPU    float64 `json:"go_cpu_seconds,omitempty"` // process CPU time (all threads), minimum over the runs
	PyCPU    float64 `json:"py_cpu_seconds,omitempty"`
	CPURatio float64 `json:"cpu_ratio,omitempty"` // PyCPU / GoCPU
	Agree    bool    `json:"agree"`
	Detail   string  `json:"detail"`
	Threads  int     `json:"threads,omitempty"` // threads per side; 0: each side's default
	GoGFlops float64 `json:"go_gflops,omitempty"`
	PyGFlops float64 `json:"py_gflops,omitempty"`
}

type run struct {
	Build     string            `json:"build"`             // gonum or openblas
	Set       string            `json:"set,omitempty"`     // "ne": the neighbour-embedding set (-ne); "": the default rows
	Threads   int               `json:"threads,omitempty"` // threads per side; 0: each side's default (all cores)
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
	only := flag.String("only", "", "run only the tasks whose name contains this, or one of several separated by | (not recorded)")
	report := flag.Bool("report", false, "only rewrite RESULTS.md and the README table from the recorded results-*.json")
	threads := flag.Int("threads", 0, "threads per side (GOMAXPROCS and the BLAS/OpenMP pools); 0: each side's default")
	ne := flag.Bool("ne", false, "run only the neighbour-embedding set (t-SNE, UMAP at 10⁴–5·10⁴ points), one timed run per side, recorded in its own results file")
	flag.Parse()
	if *report {
		if err := writeReports(); err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(1)
		}
		return
	}
	if *threads < 0 {
		fmt.Fprintln(os.Stderr, "bench: -threads must be ≥ 0")
		os.Exit(2)
	}
	if *threads > 0 {
		if err := pinThreads(*threads); err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(1)
		}
	}
	// dimred's BLAS for every gonum product of the run, as a user who
	// wants speed would (importing dimred alone changes no global state).
	linalg.UseFastBLAS()
	if *ne && *smoke {
		fmt.Fprintln(os.Stderr, "bench: -ne and -smoke exclude each other (the smoke run has the small t-SNE and UMAP rows)")
		os.Exit(2)
	}
	if err := bench(*smoke, *ne, *repeats, *python, *only, *threads); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// selected reports whether the task name contains one of the
// |-separated parts of only (every task when only is empty).
func selected(name, only string) bool {
	if only == "" {
		return true
	}
	for _, part := range strings.Split(only, "|") {
		if part != "" && strings.Contains(name, part) {
			return true
		}
	}
	return false
}

// threadVars are the environment variables that size the thread pools of
// the Go runtime, OpenBLAS, OpenMP (scikit-learn's Cython loops), MKL and
// numba (umap-learn).
var threadVars = []string{"GOMAXPROCS", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS"}

// pinThreads makes every thread pool of the run n wide. The pools read
// their variables when their library loads (OpenBLAS in this process's
// openblas build before main), so unless they already say n the driver
// re-executes itself with them set; the Python side inherits them.
func pinThreads(n int) error {
	want := strconv.Itoa(n)
	ok := true
	for _, v := range threadVars {
		if os.Getenv(v) != want {
			ok = false
			os.Setenv(v, want)
		}
	}
	if ok {
		runtime.GOMAXPROCS(n)
		return nil
	}
	return reexec()
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
	for _, v := range threadVars {
		if e := os.Getenv(v); e != "" {
			m[v] = e
		}
	}
	for k, v := range py {
		m["py_"+k] = v
	}
	return m
}

func bench(smoke, ne bool, repeats int, python, only string, threads int) error {
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
	list := tasks(!smoke)
	set := ""
	if ne {
		list, set, repeats = neTasks(), "ne", 1
	}
	r := run{Build: build, Set: set, Threads: threads, Date: time.Now().UTC().Format("2006-01-02 15:04 MST"), Machine: machine(pyStr),
		LoadStart: loadAvg(), Repeats: repeats}
	if smoke {
		repeats = 1
	}
	fmt.Printf("bench: %s build, %s; Go BLAS %s; Python BLAS %s; load %s\n", build, threadsLabel(threads), r.Machine["go_blas"], r.Machine["py_blas"], r.LoadStart)
	tmp, err := os.MkdirTemp("", "dimred-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	failed := 0
	for ti, t := range list {
		if !selected(t.name, only) {
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
		var goT, pyT, goC, pyC []float64
		for rep := 0; rep < max(repeats, t.repeats); rep++ {
			runtime.GC()
			start, c0 := time.Now(), cpuSeconds()
			if err := runGo(); err != nil {
				return fmt.Errorf("%s: dimred: %v", t.name, err)
			}
			goT = append(goT, time.Since(start).Seconds())
			goC = append(goC, cpuSeconds()-c0)
			var res struct {
				Seconds    float64
				CPUSeconds float64 `json:"cpu_seconds"`
			}
			if t.ext != nil {
				res.Seconds, res.CPUSeconds, err = t.ext(dir)
			} else {
				err = py.ask(t.py+" "+dir, &res)
			}
			if err != nil {
				return fmt.Errorf("%s: %v", t.name, err)
			}
			pyT = append(pyT, res.Seconds)
			pyC = append(pyC, res.CPUSeconds)
		}
		detail, ok, err := check(dir)
		if err != nil {
			return fmt.Errorf("%s: comparing: %v", t.name, err)
		}
		rw := row{Name: t.name, Threads: threads, Go: slices.Min(goT), Py: slices.Min(pyT), Agree: ok, Detail: detail}
		rw.Ratio = rw.Py / rw.Go
		if gc, pc := slices.Min(goC), slices.Min(pyC); gc > 0 && pc > 0 {
			rw.GoCPU, rw.PyCPU, rw.CPURatio = gc, pc, pc/gc
		}
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
			fmt.Printf("bench: %-70s %8.3f s %8.3f s %6.2f×  CPU %8.3f s %8.3f s %6.2f×  %s: %s\n", t.name, rw.Go, rw.Py, rw.Ratio, rw.GoCPU, rw.PyCPU, rw.CPURatio, mark, detail)
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
	if err := os.WriteFile(resultsFile(build, threads, set), append(b, '\n'), 0o644); err != nil {
		return err
	}
	if err := writeReports(); err != nil {
		return err
	}
	return disagree // recorded, with the disagreement in the table
}
