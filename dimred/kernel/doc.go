// Package kernel holds the covariance functions (kernels) of the book's
// Chapter 4 and the matrices built from them: Kernel with RBF (exponentiated
// quadratic), Linear and Polynomial; Gram (K_ij = k(y_i, y_j)) and Cross
// (K_ij = k(a_i, b_j)) matrices built on all cores; the implied squared
// distances d_ij = k_ii − 2k_ij + k_jj of a kernel (§4.3); and the
// basis-function view of a kernel (FeatureMap, EQBasis, FeatureKernel,
// UniformEQBasis, IntervalEQKernel), k(y, y') = φ(y)ᵀφ(y'), whose limit of
// infinitely many basis functions is the RBF kernel (§4.2).
//
// For Gaussian-process models (the spectral paper's GP-LVM score, the
// GP-LVM) ParamKernel adds log hyperparameters and the derivatives of a
// Gram matrix with respect to them and to the inputs, contracted with
// ∂f/∂K: *RBF, *Linear, Bias, White and their Sum.
package kernel
