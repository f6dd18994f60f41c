//go:build unix

package benchutil

import "syscall"

// ProcessCPUSeconds returns the user+system CPU time of this process, to
// report benchmark cost independently of other jobs on a shared machine.
func ProcessCPUSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
}
