//go:build !unix

package benchutil

func ProcessCPUSeconds() float64 { return 0 }
