// Package highdim is the mathematics of the book's Chapter 1, "Learning in
// high dimensions", and of §3.2's argument about the prototype six: how the
// mass of a Gaussian moves into a thin shell (EggMasses), the gamma laws of
// squared distances from the mean and between points (GammaPDF, GammaCDF,
// SquaredDistanceFromMean, InterpointSquaredDistance, InterpointVariance,
// NormalisedInterpointDistances), Gaussian samplers (SampleIsotropic,
// SampleLinearGaussian, SampleGaussian), and the independent Bernoulli
// model of binary images with the waiting-time arithmetic of §3.2.
package highdim
