// Package datasets loads the real data sets of "Dimensionality Reduction for
// Machine Learning" (oil flow, stick man, robot WiFi, Spellman yeast, the
// prototype six, European road distances) and two standard extras (R's
// eurodist and USPS digits), each as a *Dataset with its data in Y (n×p,
// rows are observations), preprocessed exactly as the book's own demos did.
//
// # Where the files come from
//
// The data are never part of the repository. Every file the loaders read is
// listed in a registry (Files()) with its canonical HTTPS URL, its size and its
// SHA-256. Path resolves a file in this order:
//
//  1. $DIMRED_DATA, a local mirror laid out as <dataset>/<file> (for
//     example a directory such as ../shared/datasets holding
//     oil/DataTrn.txt). A relative DIMRED_DATA is
//     resolved against the current working directory, and go test runs in
//     each package's own directory, so an absolute path is safest.
//  2. The user cache, $DIMRED_CACHE if set, else os.UserCacheDir()/dimred,
//     laid out the same way.
//  3. A download from the registry's https URL into the cache (unless
//     DIMRED_OFFLINE=1). The download goes to a temporary file in the cache
//     directory, is checked against the registered size and SHA-256 and only
//     then renamed into place; any failure removes the temporary file, so an
//     interrupted or corrupted download leaves nothing behind. The
//     package prints nothing; Fetch reports the progress of downloads over
//     1 MB to FetchSettings.Progress if one is given.
//
// Every file found in the mirror or the cache is checked against its
// SHA-256 too. A mismatch is an error wrapping ErrChecksum that names the
// file and both sums and says what to do next: a corrupted cache file is
// deleted (the next call downloads it again), a corrupted download is
// discarded, a corrupted mirror file must be replaced. A mirror or cache
// path that cannot be used (a directory where the file should be, a
// symbolic-link loop, no read permission, a DIMRED_CACHE that is a regular
// file) is an error wrapping ErrCache that names the path and the fix. Only the
// registry's URLs are fetched and cache paths are built from the registry's
// dataset and file names, never from anything read from a file or a server.
//
// One file is registered outside Files(), because it is a map background
// rather than the book's data and so is not part of the mirror: Natural
// Earth's land outlines (public domain) in the world-atlas npm tarball,
// read by Coastlines for Fig 3.9. It is resolved the same way (mirror,
// cache, verified download); its only user falls back to a graticule when
// it is unavailable, so nothing depends on the download succeeding.
//
// When a file is in neither place and cannot be downloaded the error wraps
// ErrNotAvailable and says how to set DIMRED_DATA; `go run ./scripts/fetch-data`
// fetches everything into the cache while online.
//
// # Tests that need data
//
// Missing(err) reports whether err means "the data are not here". Tests skip
// in that case unless DIMRED_REQUIRE_DATA=1 (CI), when they fail; Skippable
// combines the two, and the subpackage datasets/dstest wraps the pattern:
//
//	ds, err := datasets.Oil("train")
//	dstest.Check(t, err) // skips, or fails under DIMRED_REQUIRE_DATA=1, or fails on any other error
//
// or, without the helper,
//
//	if datasets.Skippable(err) { t.Skip(err) }
//	if err != nil { t.Fatal(err) }
//
// # Loaders
//
//	Oil(split)          1000×12, Labels 0,1,2 = homogeneous, annular, stratified
//	Stick()             55×102, *Dataset with Markers, Edges (skeleton) and Frames
//	RobotWireless()     215×30 training frames, T = x,y; RobotWirelessTest() the other 179
//	Spellman()          77×6178, missing → 0; SpellmanGeneMeans() fills gene means instead,
//	                    SpellmanWithMissing() leaves NaN
//	Six()               the 64×57 prototype six, grey 0..255 as stored (ink dark)
//	RotatedSixes()      the 360 rotated sixes of Chapter 3 (sixes.go), built on Six
//	EuropeRoads(sel)    km road distances in D; sel = Cities53 (book, ferry pairs imputed),
//	                    Cities48 (ferry cities dropped), Cities53Zero (ferry pairs 0 km,
//	                    as the book's run evidently had them)
//	Eurodist()          R's 21-city table in D
//	USPS(split)         7291×256 (train) or 2007×256 (test), Labels = digits
//	OilDnetSaved(k)     the author's saved GTM (k = 1–3) and density-network (4–5) fits
//	                    behind Figs 6.10 and 6.8, read from their MATLAB 5.0 MAT-files
//
// Your own data: ReadTableFile/ReadTable read a CSV or TSV table (a header
// line, an optional label column and row-name column, missing values as
// NaN), and ReadNPYFile/ReadNPY a NumPy .npy array, into a Dataset.
//
// Text parsers return errors wrapping ErrParse that name the file and line
// (and, for tables, the column).
package datasets
