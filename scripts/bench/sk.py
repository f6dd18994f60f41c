#!/usr/bin/env python3
"""The scikit-learn/SciPy side of scripts/bench (run by the Go driver).

Reads one request per line on stdin: "<task> <dir>", where <dir> holds the
task's input files (.npy, written once by the driver; both sides read the
same files). Loads them (not timed), runs the computation (timed with
perf_counter), writes its outputs to <dir>/py-*.npy and answers one JSON
line {"seconds": ..., "cpu_seconds": ..., "extra": {...}} on stdout (wall
and process CPU time of the computation). "info" answers the versions
and the BLAS in use (threadpoolctl). Run with Debian's /usr/bin/python3
(python3-sklearn).
"""
import json
import os
import sys
import time

import numpy as np


# CPU[0] is the process CPU time (all threads) of the last timed
# computation, answered beside its wall time.
CPU = [0.0]


def load(d, name):
    return np.load(os.path.join(d, name + ".npy"))


def save(d, name, a):
    np.save(os.path.join(d, "py-" + name + ".npy"), np.ascontiguousarray(a))


def params(d):
    with open(os.path.join(d, "params.json")) as f:
        return json.load(f)


def task_trust(d):
    from sklearn.manifold import trustworthiness
    Y, X, k = load(d, "Y"), load(d, "X"), params(d)["k"]
    t, c = time.perf_counter(), time.process_time()
    v = trustworthiness(Y, X, n_neighbors=k)
    s = time.perf_counter() - t
    CPU[0] = time.process_time() - c
    save(d, "value", np.array([v]))
    return s, {}


def knn(d, algorithm):
    from sklearn.neighbors import NearestNeighbors
    Y, k = load(d, "Y"), params(d)["k"]
    t, c = time.perf_counter(), time.process_time()
    nn = NearestNeighbors(n_neighbors=k, algorithm=algorithm).fit(Y)
    dist, ind = nn.kneighbors()  # X=None: each point's neighbours without itself
    s = time.perf_counter() - t
    CPU[0] = time.process_time() - c
    save(d, "dist", dist)
    save(d, "index", ind.astype(np.int64))
    return s, {}


def task_knn_brute(d):
    return knn(d, "brute")


def task_kdtree(d):
    return knn(d, "kd_tree")


def pca(d, solver):
    from sklearn.decomposition import PCA
    Y, q = load(d, "Y"), params(d)["q"]
    t, c = time.perf_counter(), time.process_time()
    m = PCA(n_components=q, svd_solver=solver, random_state=0).fit(Y)
    s = time.perf_counter() - t
    CPU[0] = time.process_time() - c
    n = Y.shape[0]
    # sklearn's explained_variance_ divides by n−1; dimred's eigenvalues by n.
    save(d, "vals", m.explained_variance_ * (n - 1) / n)
    save(d, "vecs", m.components_.T)
    return s, {}


def task_pca_arpack(d):
    return pca(d, "arpack")


def task_pca_randomized(d):
    return pca(d, "randomized")


def task_mds(d):
    from scipy.sparse.linalg import eigsh
    D, q = load(d, "D"), params(d)["q"]
    t, c = time.perf_counter(), time.process_time()
    # B = −½ H D H by row/column means, then the top q eigenpairs (ARPACK).
    r = D.mean(axis=1)
    B = -0.5 * (D - r[:, None] - r[None, :] + r.mean())
    vals, vecs = eigsh(B, k=q, which="LA")
    s = time.perf_counter() - t
    CPU[0] = time.process_time() - c
    o = np.argsort(vals)[::-1]
    save(d, "vals", vals[o])
    save(d, "vecs", vecs[:, o])
    return s, {}


def task_kpca(d):
    from sklearn.decomposition import KernelPCA
    Y, p = load(d, "Y"), params(d)
    t, c = time.perf_counter(), time.process_time()
    m = KernelPCA(n_components=p["q"], kernel="rbf", gamma=p["gamma"], eigen_solver="arpack",
                  random_state=0).fit(Y)
    s = time.perf_counter() - t
    CPU[0] = time.process_time() - c
    save(d, "vals", m.eigenvalues_)
    save(d, "vecs", m.eigenvectors_)
    return s, {}


def task_geodesic(d):
    from sklearn.neighbors import kneighbors_graph
    from scipy.sparse.csgraph import shortest_path
    Y, k = load(d, "Y"), params(d)["k"]
    t, c = time.perf_counter(), time.process_time()
    G = kneighbors_graph(Y, k, mode="distance")
    D = shortest_path(G, method="D", directed=False)
    s = time.perf_counter() - t
    CPU[0] = time.process_time() - c
    save(d, "D", D)
    return s, {}


def task_gemm(d):
    A, B = load(d, "A"), load(d, "B")
    t, c = time.perf_counter(), time.process_time()
    C = A @ B
    s = time.perf_counter() - t
    CPU[0] = time.process_time() - c
    save(d, "C", C)
    return s, {}


def embed(d, make):
    Y, p = load(d, "Y"), params(d)
    m = make(p)
    t, c = time.perf_counter(), time.process_time()
    X = m.fit_transform(Y)
    s = time.perf_counter() - t
    CPU[0] = time.process_time() - c
    save(d, "X", np.asarray(X, dtype=np.float64))  # TSNE and UMAP return float32
    return s, {}


def task_isomap(d):
    from sklearn.manifold import Isomap
    return embed(d, lambda p: Isomap(n_neighbors=p["k"], n_components=p["q"], eigen_solver="arpack",
                                     path_method="D"))


def task_lle(d):
    # Timed: scikit-learn's ARPACK path (shift-invert at σ = 0 on the
    # singular M). Its bottom eigenvalues are clustered (gaps ~1e-7·‖M‖ on
    # the swiss roll), where that factorisation is inaccurate, so for
    # n ≤ 4000 the dense solution is saved too (not timed) as the reference.
    from sklearn.manifold import LocallyLinearEmbedding
    s, extra = embed(d, lambda p: LocallyLinearEmbedding(n_neighbors=p["k"], n_components=p["q"],
                                                          reg=p["reg"], eigen_solver="arpack",
                                                          tol=1e-10, random_state=0))
    Y, p = load(d, "Y"), params(d)
    if Y.shape[0] <= 4000 and not os.path.exists(os.path.join(d, "py-Xref.npy")):
        ref = LocallyLinearEmbedding(n_neighbors=p["k"], n_components=p["q"], reg=p["reg"],
                                     eigen_solver="dense").fit_transform(Y)
        save(d, "Xref", ref)
    return s, extra


def task_spectral(d):
    # The union-symmetrised 0/1 kNN graph (dimred's; sklearn's own
    # "nearest_neighbors" affinity averages A and Aᵀ), built in the timed part.
    from sklearn.manifold import SpectralEmbedding
    from sklearn.neighbors import kneighbors_graph
    Y, p = load(d, "Y"), params(d)
    t, c = time.perf_counter(), time.process_time()
    G = kneighbors_graph(Y, p["k"], mode="connectivity")
    A = G.maximum(G.T)
    X = SpectralEmbedding(n_components=p["q"], affinity="precomputed", eigen_solver="arpack",
                          random_state=0).fit_transform(A)
    s = time.perf_counter() - t
    CPU[0] = time.process_time() - c
    save(d, "X", X)
    return s, {}


def _jobs():
    # One thread when the bench runs with OMP_NUM_THREADS=1 (its one-thread
    # rows), every core otherwise.
    return 1 if os.environ.get("OMP_NUM_THREADS") == "1" else -1


def task_tsne(d):
    # Barnes-Hut t-SNE with the settings of dimred.TSNE's defaults: PCA
    # start, learning rate "auto", perplexity 30 (10 below 1000 points),
    # 1000 iterations; all cores.
    from sklearn.manifold import TSNE
    Y = load(d, "Y")
    perp = 30 if Y.shape[0] >= 1000 else 10
    return embed(d, lambda p: TSNE(n_components=p["q"], perplexity=perp, init="pca",
                                   learning_rate="auto", n_iter=1000, random_state=0, n_jobs=_jobs()))


def task_umap(d):
    # umap-learn with its defaults and no random_state (a fixed seed makes
    # it single-threaded); numba compiles its kernels on first use, so a
    # small fit first (not timed) leaves only the computation in the time.
    import umap
    Y = load(d, "Y")
    umap.UMAP(n_components=2).fit_transform(Y[: min(300, Y.shape[0])])
    return embed(d, lambda p: umap.UMAP(n_components=p["q"], n_jobs=_jobs()))


def info():
    import scipy
    import sklearn
    out = {"python": sys.version.split()[0], "numpy": np.__version__, "scipy": scipy.__version__,
           "sklearn": sklearn.__version__, "blas": "unknown",
           "umap-learn": _umap_version(),
           "OPENBLAS_CORETYPE": os.environ.get("OPENBLAS_CORETYPE", "")}
    try:
        from threadpoolctl import threadpool_info
        b = [i for i in threadpool_info() if i.get("user_api") == "blas"]
        if b:
            i = b[0]
            out["blas"] = "%s %s (%s, %s threads)" % (i.get("internal_api"), i.get("version"),
                                                      i.get("architecture"), i.get("num_threads"))
    except Exception as e:  # threadpoolctl missing: say so, do not fail
        out["blas"] = "unknown (threadpoolctl: %s)" % e
    return out


def _umap_version():
    try:
        import umap
        return umap.__version__
    except Exception:  # not installed: the umap rows report an error
        return "not installed"


def main():
    for line in sys.stdin:
        parts = line.split()
        if not parts:
            continue
        try:
            if parts[0] == "info":
                print(json.dumps(info()), flush=True)
                continue
            CPU[0] = None
            s, extra = globals()["task_" + parts[0].replace("-", "_")](parts[1])
            print(json.dumps({"seconds": s, "cpu_seconds": CPU[0], "extra": extra}), flush=True)
        except Exception as e:
            print(json.dumps({"error": "%s: %s" % (type(e).__name__, e)}), flush=True)


if __name__ == "__main__":
    main()
