//go:build unix

package dimred_test

import (
	"syscall"
	"time"
)

// mvuCPUTime returns the process's user + system CPU time: on a shared
// machine wall time says little.
func mvuCPUTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
