// Package rng holds dimred's one default seed and the random helpers shared
// by its packages.
package rng

import (
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// DefaultSeed is the seed of every random choice made with a nil Src, in
// every dimred package, so results and figures are identical run to run.
// It seeds two PCG streams: StreamSample for the samplers (highdim's
// Sample… functions, datasets' generators) and StreamFit for the fitting
// methods' random choices (eigensolver and SVD start vectors, randomized
// PCA, EM starts, k-means seeding, latent samples).
const DefaultSeed = 1

// The two PCG streams of DefaultSeed.
const (
	StreamSample = 1
	StreamFit    = 2
)

// New returns a generator on src, or, when src is nil, on DefaultSeed's
// sampling stream.
func New(src rand.Source) *rand.Rand {
	if src == nil {
		src = rand.NewPCG(DefaultSeed, StreamSample)
	}
	return rand.New(src)
}

// FitSource returns src, or, when it is nil, a new source on DefaultSeed's
// fitting stream.
func FitSource(src rand.Source) rand.Source {
	if src == nil {
		return rand.NewPCG(DefaultSeed, StreamFit)
	}
	return src
}

// NormalDense returns an r×c matrix of independent standard normal draws
// from rnd, filled row by row.
func NormalDense(rnd *rand.Rand, r, c int) *mat.Dense {
	m := mat.NewDense(r, c, nil)
	for i := range m.RawMatrix().Data {
		m.RawMatrix().Data[i] = rnd.NormFloat64()
	}
	return m
}
