//go:build !unix

package dimred

func peakRSSMB() float64 { return 0 }
