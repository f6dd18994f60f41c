//go:build unix

package main

import (
	"os"
	"syscall"
)

// reexec replaces the process by a new run of itself with the current
// environment (pinThreads).
func reexec() error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	return syscall.Exec(exe, os.Args, os.Environ())
}

// cpuSeconds is the process's CPU time (user + system, all threads).
func cpuSeconds() float64 {
	var r syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &r) != nil {
		return 0
	}
	return float64(r.Utime.Nano()+r.Stime.Nano()) / 1e9
}
