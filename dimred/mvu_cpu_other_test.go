//go:build !unix

package dimred_test

import "time"

// mvuCPUTime is not measured on this platform.
func mvuCPUTime() time.Duration { return 0 }
