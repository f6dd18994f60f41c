// Command peakmem runs one dense n² method once on synthetic data, for
// measuring its peak memory from outside (scripts/bench's README section):
//
//	/usr/bin/time -v go run ./scripts/bench/peakmem -method mds -n 16000
//
// (build it first, `go build -o /tmp/peakmem ./scripts/bench/peakmem`, so
// that the compiler is not what is measured). Methods: mds (classical MDS
// from the data: n×n squared distances + the implicit eigensolver),
// landmark (landmark MDS, 500 landmarks), kpca (RBF kernel PCA),
// isomap (kNN graph, all-pairs geodesics, classical MDS), trust
// (trustworthiness of a 2-D embedding).
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"time"

	"github.com/dimredbook/book/dimred"
	"github.com/dimredbook/book/dimred/kernel"

	"gonum.org/v1/gonum/mat"
)

func main() {
	method := flag.String("method", "mds", "mds, landmark, kpca, isomap or trust")
	n := flag.Int("n", 8000, "number of points")
	flag.Parse()
	rnd := rand.New(rand.NewPCG(1, 2))
	Y := mat.NewDense(*n, 10, nil)
	for i := range Y.RawMatrix().Data {
		Y.RawMatrix().Data[i] = rnd.NormFloat64()
	}
	start := time.Now()
	var err error
	switch *method {
	case "mds":
		err = (&dimred.ClassicalMDS{Q: 2}).Fit(Y)
	case "landmark":
		err = (&dimred.ClassicalMDS{Q: 2, Landmarks: 500}).Fit(Y)
	case "kpca":
		err = (&dimred.KernelPCA{Kernel: kernel.RBFGamma(0.05), Q: 2}).Fit(Y)
	case "isomap":
		err = (&dimred.Isomap{Q: 2, K: 10}).Fit(Y)
	case "trust":
		_, err = dimred.Trustworthiness(Y, Y.Slice(0, *n, 0, 2), 5)
	default:
		fmt.Fprintln(os.Stderr, "peakmem: unknown method", *method)
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "peakmem:", err)
		os.Exit(1)
	}
	fmt.Printf("peakmem: %s n = %d: %.2f s\n", *method, *n, time.Since(start).Seconds())
}
