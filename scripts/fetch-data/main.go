// Command fetch-data downloads every file of the datasets registry that is
// not already in $DIMRED_DATA or the user cache into the cache, verifying
// each against its SHA-256, so that the loaders and notebooks work offline
// afterwards.
//
//	go run ./scripts/fetch-data            all data sets
//	go run ./scripts/fetch-data oil stick  only these
//
// Files without a public URL (eurodist_labels.txt, zip.info.txt; the
// loaders do not need them) are reported but do not fail the command.
package main

import (
	"fmt"
	"os"

	"github.com/dimredbook/book/datasets"
)

func main() {
	failed := 0
	report := func(f datasets.File, path string, err error) {
		switch {
		case err == nil:
			fmt.Printf("ok       %s/%s  %s\n", f.Dataset, f.Name, path)
		case f.URL == "":
			fmt.Printf("skipped  %s/%s  (no public URL; not needed by the loaders)\n", f.Dataset, f.Name)
		default:
			failed++
			fmt.Fprintf(os.Stderr, "FAILED   %s/%s: %v\n", f.Dataset, f.Name, err)
		}
	}
	err := datasets.Fetch(&datasets.FetchSettings{Progress: os.Stderr, Report: report}, os.Args[1:]...)
	if cache, cerr := datasets.CacheDir(); cerr == nil {
		fmt.Printf("cache: %s\n", cache)
	}
	if failed > 0 {
		fmt.Fprintf(os.Stderr, "fetch-data: %d file(s) failed\n", failed)
		os.Exit(1)
	}
	_ = err
}
