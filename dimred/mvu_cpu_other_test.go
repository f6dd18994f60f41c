//go:build !unix

package dimred

import "time"

// mvuCPU is not measured on this platform.
func mvuCPU() time.Duration { return 0 }

// MVUCPUTime exports mvuCPU to the external test package.
var MVUCPUTime = mvuCPU
