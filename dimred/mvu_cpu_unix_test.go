//go:build unix

package dimred

import (
	"syscall"
	"time"
)

// mvuCPU returns the process's user + system CPU time: on a shared
// machine wall time says little.
func mvuCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// MVUCPUTime exports mvuCPU to the external test package.
var MVUCPUTime = mvuCPU
