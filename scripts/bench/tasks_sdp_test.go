package main

import (
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/dimredbook/book/datasets"
	"github.com/dimredbook/book/dimred"
)

// dimred's MVU optimum equals CSDP's on the same programme (the SDPA file
// of writeSDPA, CSDP at the same tolerance): tr K within 1e-6 relative on
// the robot WiFi data and the noisy half-circle at n = 100. Skipped when
// csdp (Debian's coinor-csdp) or the robot data is missing.
// SDP_KEEP=dir keeps the SDPA files there.
func TestMVUMatchesCSDP(t *testing.T) {
	if _, err := exec.LookPath("csdp"); err != nil {
		t.Skip("csdp not installed (scripts/setup installs coinor-csdp)")
	}
	for _, data := range []string{"robot WiFi", "noisy half-circle"} {
		n := 100
		y, err := sdpData(data, n)
		if datasets.Skippable(err) {
			t.Skip(err)
		}
		if err != nil {
			t.Fatal(err)
		}
		m := &dimred.MVU{Q: 2, K: sdpK, Tol: sdpTol}
		if err := m.Fit(y); err != nil {
			t.Fatalf("%s: %v", data, err)
		}
		dir := t.TempDir()
		if keep := os.Getenv("SDP_KEEP"); keep != "" {
			dir = filepath.Join(keep, data)
			os.MkdirAll(dir, 0o755)
		}
		scale, err := writeSDPA(filepath.Join(dir, "mvu.dat-s"), n, m.Constraints())
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "param.csdp"), []byte(csdpParams), 0o644); err != nil {
			t.Fatal(err)
		}
		obj, _, _, _, err := runCSDP(dir, 1)
		if err != nil {
			t.Fatal(err)
		}
		tr, tc := m.SDPReport().Objective, obj*scale
		d := math.Abs(tr-tc) / tc
		t.Logf("%s n = %d, m = %d: tr K %.10g, CSDP %.10g, relative difference %.1e", data, n, m.SDPReport().Constraints, tr, tc, d)
		if d > 1e-6 {
			t.Errorf("%s: tr K %.10g differs from CSDP's %.10g by %.1e relative", data, tr, tc, d)
		}
	}
}
