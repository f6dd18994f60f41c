//go:build unix

package dimred

import "syscall"

// peakRSSMB is the process's maximum resident set size in MB (Linux
// reports ru_maxrss in KB).
func peakRSSMB() float64 {
	var r syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &r) != nil {
		return 0
	}
	return float64(r.Maxrss) / 1024
}
