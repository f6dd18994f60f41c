//go:build !noasm && !openblas

package linalg

// gonumAsm: gonum's own SSE2 kernels are in use (they are on every amd64
// processor unless the noasm tag, which also switches gonum to plain Go, is
// given), so bit-pinned results apply.
const gonumAsm = true
