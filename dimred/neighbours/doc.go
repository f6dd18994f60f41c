// Package neighbours builds the neighbourhood graphs of the spectral
// methods of the book's Chapter 5 (Isomap, LLE, Laplacian eigenmaps, MVU,
// MEU) and the quantities defined on them: k-nearest-neighbour and ε graphs
// (KNearest, KNNGraph, EpsilonGraph) with union or mutual symmetrisation,
// connected components (ConnectedComponents, CheckConnected), shortest-path
// (geodesic) distances, and graph Laplacians L = D − W and
// I − D^{-1/2} W D^{-1/2}. Graphs are sparse, symmetric linalg.CSR
// matrices of edge weights (distances for kNN graphs).
//
// Neighbour search uses a kd-tree in low dimension and blocked BLAS
// distance products above it; geodesics run one Dijkstra per source on all
// cores. A disconnected graph where a connected one is needed is an error
// wrapping ErrDisconnected (a *DisconnectedError naming the components).
package neighbours
