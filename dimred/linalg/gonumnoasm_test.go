//go:build noasm || openblas

package linalg

const gonumAsm = false
