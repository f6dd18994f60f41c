// Package benchutil holds helpers shared by the benchmarks of dimred's
// packages.
package benchutil

import "testing"

// CPUMetric starts measuring the process's CPU time and returns a function
// that reports it per operation as "cpu-s/op": on a shared machine wall time
// is inflated by other jobs, CPU time much less so.
func CPUMetric(b *testing.B) func() {
	c0 := ProcessCPUSeconds()
	return func() {
		b.ReportMetric((ProcessCPUSeconds()-c0)/float64(b.N), "cpu-s/op")
	}
}
