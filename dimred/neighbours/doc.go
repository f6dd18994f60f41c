// Package neighbours builds the neighbourhood graphs of the spectral
// methods of the book's Chapter 5 (Isomap, LLE, Laplacian eigenmaps, MVU,
// MEU) and the quantities defined on them: k-nearest-neighbour and ε graphs
// (KNearest, KNNGraph, EpsilonGraph) with union or mutual symmetrisation,
// connected components (ConnectedComponents, CheckConnected), shortest-path
// (geodesic) distances, and graph Laplacians L = D − W and
// I − D^{-1/2} W D^{-1/2}. Graphs are sparse, symmetric linalg.CSR
// matrices of edge weights (distances for kNN graphs).
//
// Neighbour search uses a kd-tree in low dimension and blocked distance
// products above it, fused with the tests against the neighbour lists on
// processors with AVX2 or AVX-512 (Search sets the crossover; the package
// functions use its defaults); data of extreme scale are rescaled so that
// no representable distance overflows. Geodesics run one Dijkstra per
// source on all cores, on the graph taken as undirected (Undirected). Data
// properties — a NaN or negative edge weight, a point of zero degree, a
// graph of no points — are returned as errors, not panics.
//
// Disconnected graphs. A kNN graph can fall apart into components (groups
// of near-duplicate points do it to the oil data for every k ≤ 30). The
// methods that need a connected graph — Isomap, Laplacian eigenmaps, LLE
// and MVU in package dimred — share one setting, their Disconnected field
// of type DisconnectedPolicy:
//
//   - RefuseDisconnected (the zero value): an error wrapping
//     ErrDisconnected, a *DisconnectedError naming the components;
//   - LargestComponent: embed the largest component only; the method's
//     LatentTo then has one row per kept point and its Kept method names
//     the kept rows of Y (LargestComponentOf);
//   - ConnectComponents: join every pair of components by its shortest
//     edge, as scikit-learn's Isomap does since version 1.0, and embed
//     every point (JoiningEdges, ConnectGraph).
//
// MEU and DRILL fit a regularised precision (γ I, the penalty ρ) that is
// proper on any graph, and AcyclicLLE's parent graph is connected by
// construction (every point but the last has a later parent), so they do
// not check connectivity.
package neighbours
