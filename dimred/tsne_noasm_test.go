//go:build noasm || openblas

package dimred

const gonumAsm = false
