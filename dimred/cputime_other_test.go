//go:build !unix

package dimred

func processCPUSeconds() float64 { return 0 }
