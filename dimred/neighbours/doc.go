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
// distance products above it (Search sets the crossover; the package
// functions use its defaults); data of extreme scale are rescaled so that
// no representable distance overflows. Geodesics run one Dijkstra per
// source on all cores, on the graph taken as undirected (Undirected). Data
// properties — a NaN or negative edge weight, a point of zero degree, a
// graph of no points — are returned as errors, not panics. A disconnected graph where a connected one is needed is an error
// wrapping ErrDisconnected (a *DisconnectedError naming the components).
package neighbours
