package datasets

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Sentinel errors; returned errors wrap them with context (test with errors.Is).
var (
	// ErrNotAvailable: a file is in neither the mirror nor the cache and
	// could not be downloaded.
	ErrNotAvailable = errors.New("datasets: data not available")
	// ErrChecksum: a file's size or SHA-256 differs from the registry's.
	ErrChecksum = errors.New("datasets: checksum mismatch")
	// ErrUnknown: no such dataset or file in the registry.
	ErrUnknown = errors.New("datasets: unknown file")
	// ErrParse: a file does not have the expected format.
	ErrParse = errors.New("datasets: malformed file")
	// ErrCache: a local copy in the mirror ($DIMRED_DATA) or the cache
	// ($DIMRED_CACHE) cannot be read or written — a directory where the
	// file should be, a symbolic-link loop, a file without read
	// permission, or a DIMRED_DATA/DIMRED_CACHE that is not a directory.
	// The error names the path and says what to change.
	ErrCache = errors.New("datasets: unusable local data path")
)

// File is one registered data file.
type File struct {
	Dataset string // directory in the mirror and cache, e.g. "oil"
	Name    string // file name, e.g. "DataTrn.txt"
	Size    int64  // bytes
	SHA256  string // hex
	URL     string // canonical https URL; "" if the file has no public URL of its own
}

// Files returns the registry: every file the loaders read, with the size
// and SHA-256 every copy (mirror, cache or download) is checked against. A
// local mirror for DIMRED_DATA holds exactly these files, laid out as
// <Dataset>/<Name>. The slice is a copy: changing it changes nothing the
// package verifies.
func Files() []File { return append([]File(nil), registry...) }

// registry is the list Files copies; nothing outside the package can
// change it.
var registry = []File{
	// The author's saved fits behind Figs 6.8 and 6.10 (lawrennd/dimred,
	// MATLAB 5.0 MAT-files; read by OilDnetSaved). The mirror lists them in
	// dimred_saved/MANIFEST.tsv, apart from the top-level MANIFEST.tsv.
	{"dimred_saved", "demOilDnet1.mat", 3225, "1cc49334483c67f4c62e0c795250dfb903a685a596c1589e0400a117d687be23", "https://raw.githubusercontent.com/lawrennd/dimred/master/matlab/demOilDnet1.mat"},
	{"dimred_saved", "demOilDnet2.mat", 3437, "738ac08510bb205d6f0238959280fc0a3bafb06157b5758a8c9e3c0e52461cb3", "https://raw.githubusercontent.com/lawrennd/dimred/master/matlab/demOilDnet2.mat"},
	{"dimred_saved", "demOilDnet3.mat", 3900, "11c1025b6a3b63b4517f2dd4cd9c9e9b35566a958620e1cb3cd924b953d54702", "https://raw.githubusercontent.com/lawrennd/dimred/master/matlab/demOilDnet3.mat"},
	{"dimred_saved", "demOilDnet4.mat", 4785, "0b8fb2bd5dff10c982dedb3a9f061ad1b300b7e4dc40fa767b341bae48235e54", "https://raw.githubusercontent.com/lawrennd/dimred/master/matlab/demOilDnet4.mat"},
	{"dimred_saved", "demOilDnet5.mat", 9393, "88486c08b0393e0a38ff95e967df23b04971f731c826a2b766a5da6ddd2cb73f", "https://raw.githubusercontent.com/lawrennd/dimred/master/matlab/demOilDnet5.mat"},
	{"eurodist", "eurodist.csv", 1723, "2dff7fcc529b220f3c5be0fbdb920cb324b34751fd78843cb8d3a0a24f09ff7e", "https://raw.githubusercontent.com/vincentarelbundock/Rdatasets/master/csv/datasets/eurodist.csv"},
	{"eurodist", "eurodist_labels.txt", 175, "4b7b9c0106fa6b80febaebcbc465bc8592c5d8311c5b9953e5de35d16cac70a8", ""},
	{"europe_roads", "europeCities.csv", 458, "1a0680bc4ff0d6894d400ea766c02580f7b8afb0f2e8a3a9de756c13df7b3929", "https://raw.githubusercontent.com/lawrennd/dimred/master/matlab/europeCities.csv"},
	{"europe_roads", "europeDistance.csv", 13795, "de870698eb62af587f4268797b5a66b449a5a64f352e8473ac4131d1f3a54414", "https://raw.githubusercontent.com/lawrennd/dimred/master/matlab/europeDistance.csv"},
	{"oil", "DataTrn.txt", 205000, "ff1aeeceb204de936990bc22cc9d0e4ca7094e993a6d723509c60be0b0f2a136", "https://github.com/lawrennd/datasets_mirror/raw/main/three_phase_oil_flow/DataTrn.txt"},
	{"oil", "DataTrnLbls.txt", 52000, "15e5ce14ca8054ca34b984b8da7d8ffeff682f86af2772911e9deccdd4d438c0", "https://github.com/lawrennd/datasets_mirror/raw/main/three_phase_oil_flow/DataTrnLbls.txt"},
	{"oil", "DataTst.txt", 181871, "f287fda27a2b6b9e93de22ebed7229d1c57bd7e3154d6291b66f99521816e466", "https://github.com/lawrennd/datasets_mirror/raw/main/three_phase_oil_flow/DataTst.txt"},
	{"oil", "DataTstLbls.txt", 46000, "411dcc8d566cf1f9a40bdb16d9d0e2ddf934b534a840e508efd4be4ce5827d2f", "https://github.com/lawrennd/datasets_mirror/raw/main/three_phase_oil_flow/DataTstLbls.txt"},
	{"oil", "DataVdn.txt", 181925, "2faab71737820af032f8d418669dcda5342296cba53116c43fb9e76b45f51710", "https://github.com/lawrennd/datasets_mirror/raw/main/three_phase_oil_flow/DataVdn.txt"},
	{"oil", "DataVdnLbls.txt", 46000, "b6073b1f0719451cec67cddad533decf6448aa026482f872e211e848007ebbe8", "https://github.com/lawrennd/datasets_mirror/raw/main/three_phase_oil_flow/DataVdnLbls.txt"},
	{"robot_wireless", "uw-floor.txt", 284390, "8daa925f365d9101c75ee89ccf51519159e6d105b19827bb60a30f1042a41ad6", "https://github.com/lawrennd/datasets_mirror/raw/main/robot_wireless/uw-floor.txt"},
	{"six", "br1561_6.3.pgm", 3661, "94f33091caeaf275668853f3f3468b11192c17a7e74a656f99b51e0d4a9e6d4d", "https://raw.githubusercontent.com/lawrennd/dimred/master/matlab/br1561_6.3.pgm"},
	{"spellman", "combined.txt", 2510955, "0ec546bcb1dcbba99b0bdb3fe08bf20bfbfd325af3050aba3756f9e2ee225c9f", "https://github.com/lawrennd/datasets_mirror/raw/main/spellman_yeast/combined.txt"},
	{"stick", "connections.txt", 242, "6ab4534c3c13a5628ae3d29dad9fa97a953d30a9617261639da601d64836d179", "https://github.com/lawrennd/datasets_mirror/raw/main/stick/connections.txt"},
	{"stick", "run1TXT.ZIP", 78645, "bfad538e3ba7fadfe1e25daaaa825f0cd66865018850f532cd9474d4d66ecced", "https://github.com/lawrennd/datasets_mirror/raw/main/osu_accad/run1TXT.ZIP"},
	{"usps", "zip.info.txt", 1174, "927ca750c4117b61a71def180d5e4f00f1323a4b2c9cd990f576aa8def3505f1", ""},
	{"usps", "zip.test.gz", 439208, "8dacc3c6e136af6c3488de9e5113a7daf140c8c2f1f0b61c54ee02f03f1a962f", "https://raw.githubusercontent.com/dgkim5360/the-elements-of-statistical-learning-notebooks/master/data/zipcode/zip.test.gz"},
	{"usps", "zip.train.gz", 1829071, "66ebf231ab51f2cf6ac1a892d0f98ccffee1079d7a5db638c1f11f366046ca16", "https://raw.githubusercontent.com/dgkim5360/the-elements-of-statistical-learning-notebooks/master/data/zipcode/zip.train.gz"},
}

// cacheOnly lists files that are not the book's data and so are not part
// of the mirror: they are fetched into the user cache on first use (or read
// from DIMRED_DATA if someone put them there), verified like the others,
// and every caller has a fallback for when they are unavailable.
var cacheOnly = []File{
	// Natural Earth 4.1.0 land polygons as TopoJSON (public-domain data;
	// the world-atlas package is ISC), for the coastline of Fig 3.9.
	{"world_atlas", "world-atlas-2.0.2.tgz", 2277546, "032e7765f2ce00edaeafec23ff22bc3b77e42987c257da944cc585b452c05b97", "https://registry.npmjs.org/world-atlas/-/world-atlas-2.0.2.tgz"},
}

// Lookup returns the registry entry of dataset/file: a file of the mirror
// (Files) or one fetched into the cache only (the map background).
func Lookup(dataset, file string) (File, error) {
	for _, f := range registry {
		if f.Dataset == dataset && f.Name == file {
			return f, nil
		}
	}
	for _, f := range cacheOnly {
		if f.Dataset == dataset && f.Name == file {
			return f, nil
		}
	}
	return File{}, fmt.Errorf("%w: %s/%s is not in the registry", ErrUnknown, dataset, file)
}

// ProgressThreshold is the size above which a download reports progress
// to FetchSettings.Progress.
const ProgressThreshold = 1 << 20

// Time limits of a download. A server that cannot be reached fails after
// connectTimeout; one that stops sending (before the headers or in the
// middle of the body) after stallTimeout without a byte; a slow but steady
// download may take up to a total of downloadTimeout.
var (
	connectTimeout  = 10 * time.Second
	stallTimeout    = 30 * time.Second
	downloadTimeout = 30 * time.Minute
)

// httpClient fetches registry URLs; tests replace it. Redirects (GitHub
// sends raw files through one) are followed only to https URLs.
var httpClient = &http.Client{
	Timeout:       downloadTimeout,
	CheckRedirect: httpsOnly,
	Transport: &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: connectTimeout, KeepAlive: 30 * time.Second}).DialContext,
		TLSHandshakeTimeout:   connectTimeout,
		ResponseHeaderTimeout: stallTimeout,
		ForceAttemptHTTP2:     true,
	},
}

func httpsOnly(req *http.Request, via []*http.Request) error {
	if req.URL.Scheme != "https" {
		return fmt.Errorf("refusing redirect to %s: only https is fetched", req.URL)
	}
	if len(via) >= 10 {
		return errors.New("stopped after 10 redirects")
	}
	return nil
}

// downloadMu serialises downloads within a process so that two loaders do
// not fetch the same file at once.
var downloadMu sync.Mutex

// Path returns the local path of a registered file, verified against its
// SHA-256: from $DIMRED_DATA, else the user cache, else downloaded into the
// cache (see the package documentation). Errors wrap ErrUnknown,
// ErrChecksum or ErrNotAvailable.
func Path(dataset, file string) (string, error) {
	f, err := Lookup(dataset, file)
	if err != nil {
		return "", err
	}
	p, _, err := resolve(f, false, nil)
	return p, err
}

// readFile returns the verified contents of a registered file.
func readFile(dataset, file string) ([]byte, error) {
	f, err := Lookup(dataset, file)
	if err != nil {
		return nil, err
	}
	_, b, err := resolve(f, true, nil)
	return b, err
}

// MirrorDir returns the absolute mirror directory from $DIMRED_DATA, or ""
// when it is unset.
func MirrorDir() (string, error) {
	d := os.Getenv("DIMRED_DATA")
	if d == "" {
		return "", nil
	}
	abs, err := filepath.Abs(d)
	if err != nil {
		return "", fmt.Errorf("datasets: resolving DIMRED_DATA=%q: %w", d, err)
	}
	return abs, nil
}

// CacheDir returns the cache directory: $DIMRED_CACHE (made absolute) if
// set, else os.UserCacheDir()/dimred.
func CacheDir() (string, error) {
	if d := os.Getenv("DIMRED_CACHE"); d != "" {
		return filepath.Abs(d)
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("datasets: no user cache directory (%v); set DIMRED_CACHE or DIMRED_DATA", err)
	}
	return filepath.Join(d, "dimred"), nil
}

// safeName reports whether s can be used as one path element.
func safeName(s string) bool {
	return s != "" && s != "." && s != ".." && !strings.ContainsAny(s, `/\`+"\x00") && filepath.Base(s) == s
}

// resolve finds f (mirror → cache → download) and, if want, returns its
// contents. A download over ProgressThreshold bytes reports progress to
// progress unless it is nil.
func resolve(f File, want bool, progress io.Writer) (string, []byte, error) {
	if !safeName(f.Dataset) || !safeName(f.Name) {
		return "", nil, fmt.Errorf("%w: bad registry name %q/%q", ErrUnknown, f.Dataset, f.Name)
	}
	rel := f.Dataset + "/" + f.Name
	mirror, err := MirrorDir()
	if err != nil {
		return "", nil, err
	}
	if mirror != "" {
		p := filepath.Join(mirror, f.Dataset, f.Name)
		b, err := readVerified(p, f)
		switch {
		case err == nil:
			return p, keep(b, want), nil
		case errors.Is(err, ErrChecksum):
			return "", nil, fmt.Errorf("%w (in the mirror DIMRED_DATA=%s); replace %s with a good copy, or unset DIMRED_DATA to use the cache and the download", err, mirror, p)
		case !errors.Is(err, os.ErrNotExist):
			return "", nil, localError(err, p, "DIMRED_DATA", mirror)
		}
	}
	cache, cerr := CacheDir()
	if cerr == nil {
		p := filepath.Join(cache, f.Dataset, f.Name)
		b, err := readVerified(p, f)
		switch {
		case err == nil:
			return p, keep(b, want), nil
		case errors.Is(err, ErrChecksum):
			os.Remove(p)
			return "", nil, fmt.Errorf("%w; the corrupted cache file was deleted, the next call downloads it again", err)
		case !errors.Is(err, os.ErrNotExist):
			return "", nil, localError(err, p, "DIMRED_CACHE", cache)
		}
	}
	where := "DIMRED_DATA is unset"
	if mirror != "" {
		where = "not in DIMRED_DATA=" + mirror
	}
	hint := fmt.Sprintf("set DIMRED_DATA to a directory holding %s (an absolute path is safest), or run `go run ./scripts/fetch-data` while online", rel)
	if f.URL == "" {
		return "", nil, fmt.Errorf("%w: %s (%s; it has no public download URL): %s", ErrNotAvailable, rel, where, hint)
	}
	if cerr != nil {
		return "", nil, fmt.Errorf("%w: %s (%s; %v): %s", ErrNotAvailable, rel, where, cerr, hint)
	}
	if os.Getenv("DIMRED_OFFLINE") == "1" {
		return "", nil, fmt.Errorf("%w: %s (%s, not in the cache %s, and DIMRED_OFFLINE=1): %s", ErrNotAvailable, rel, where, cache, hint)
	}
	p := filepath.Join(cache, f.Dataset, f.Name)
	b, err := download(httpClient, f, p, progress)
	if err != nil {
		switch {
		case errors.Is(err, ErrChecksum):
			return "", nil, fmt.Errorf("%w; the download was discarded and nothing was written to the cache: the file at the URL changed or the transfer was corrupted — try again, or %s", err, hint)
		case errors.Is(err, ErrCache):
			return "", nil, fmt.Errorf("%w: %s (%s, not in the cache, and the download could not be stored: %w)", ErrNotAvailable, rel, where, err)
		}
		return "", nil, fmt.Errorf("%w: %s (%s, not in the cache %s, download failed: %v): %s", ErrNotAvailable, rel, where, cache, err, hint)
	}
	return p, keep(b, want), nil
}

// localError wraps a file-system error on path p (in the directory root
// named by the environment variable env) with ErrCache and advice.
func localError(err error, p, env, root string) error {
	var advice string
	var st os.FileInfo
	switch {
	case errors.Is(err, syscall.EISDIR):
		advice = "a directory is where the file should be; remove or rename it"
	case errors.Is(err, syscall.ELOOP):
		advice = "it is a symbolic-link loop; remove the link"
	case errors.Is(err, os.ErrPermission):
		advice = "it is not readable or writable by this user; fix its permissions or set " + env + " to a directory you own"
	case errors.Is(err, syscall.ENOTDIR):
		advice = "part of the path is a regular file, not a directory; " + env + " must name a directory"
	default:
		advice = "remove it, or set " + env + " to another directory"
	}
	if st, _ = os.Stat(root); st != nil && !st.IsDir() {
		advice = fmt.Sprintf("%s=%s is a regular file, not a directory; set %s to a directory", env, root, env)
	}
	return fmt.Errorf("%w: %s: %w; %s", ErrCache, p, err, advice)
}

func keep(b []byte, want bool) []byte {
	if want {
		return b
	}
	return nil
}

// readVerified reads p and checks its size and SHA-256 against f. A
// missing file gives an error wrapping os.ErrNotExist.
func readVerified(p string, f File) ([]byte, error) {
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	if err := verify(b, f, p); err != nil {
		return nil, err
	}
	return b, nil
}

func verify(b []byte, f File, where string) error {
	sum := sha256.Sum256(b)
	got := hex.EncodeToString(sum[:])
	if int64(len(b)) != f.Size || got != f.SHA256 {
		return fmt.Errorf("%w: %s/%s (%s): expected %d bytes with SHA-256 %s, got %d bytes with SHA-256 %s",
			ErrChecksum, f.Dataset, f.Name, where, f.Size, f.SHA256, len(b), got)
	}
	return nil
}

// download fetches f.URL into dst: to a temporary file in dst's directory,
// verified, then renamed. It fetches only https URLs and at most f.Size+1
// bytes; on any failure the temporary file is removed. Failures to store
// the file wrap ErrCache.
func download(client *http.Client, f File, dst string, progress io.Writer) ([]byte, error) {
	if !strings.HasPrefix(f.URL, "https://") {
		return nil, fmt.Errorf("refusing to fetch %q: only https URLs from the registry are fetched", f.URL)
	}
	downloadMu.Lock()
	defer downloadMu.Unlock()
	// Another goroutine may have fetched it while we waited.
	if b, err := readVerified(dst, f); err == nil {
		return b, nil
	}
	// The request is cancelled when no byte has arrived for stallTimeout.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stall := time.AfterFunc(stallTimeout, cancel)
	defer stall.Stop()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, f.URL, nil)
	if err != nil {
		return nil, err
	}
	resp, err := client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("GET %s: no response for %v: %w", f.URL, stallTimeout, err)
		}
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %s", f.URL, resp.Status)
	}
	dir := filepath.Dir(dst)
	_, statErr := os.Stat(dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, localError(err, dir, "DIMRED_CACHE", filepath.Dir(dir))
	}
	removeStaleParts(dir)
	tmp, err := os.CreateTemp(dir, "."+f.Name+".*"+partSuffix)
	if err != nil {
		return nil, localError(err, dir, "DIMRED_CACHE", filepath.Dir(dir))
	}
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			os.Remove(tmp.Name())
			if statErr != nil {
				os.Remove(dir) // only if we created it and it is empty
			}
		}
	}()
	var body io.Reader = &stallReader{r: io.LimitReader(resp.Body, f.Size+1), t: stall}
	if f.Size > ProgressThreshold && progress != nil {
		body = &progressReader{r: body, total: f.Size, name: f.Dataset + "/" + f.Name, w: progress}
	}
	var buf bytes.Buffer
	buf.Grow(int(f.Size))
	_, err = io.Copy(io.MultiWriter(tmp, &buf), body)
	if pr, isPR := body.(*progressReader); isPR {
		pr.finish()
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("downloading %s: stalled, no data for %v: %w", f.URL, stallTimeout, err)
		}
		return nil, fmt.Errorf("downloading %s: %w", f.URL, err)
	}
	b := buf.Bytes()
	if err := verify(b, f, "downloaded from "+f.URL); err != nil {
		return nil, err
	}
	if err := tmp.Sync(); err != nil {
		return nil, localError(err, tmp.Name(), "DIMRED_CACHE", filepath.Dir(dir))
	}
	if err := tmp.Close(); err != nil {
		return nil, localError(err, tmp.Name(), "DIMRED_CACHE", filepath.Dir(dir))
	}
	if err := os.Rename(tmp.Name(), dst); err != nil {
		return nil, localError(err, dst, "DIMRED_CACHE", filepath.Dir(dir))
	}
	ok = true
	return b, nil
}

// stallReader restarts the stall timer whenever data arrive.
type stallReader struct {
	r io.Reader
	t *time.Timer
}

func (s *stallReader) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if n > 0 {
		s.t.Reset(stallTimeout)
	}
	return n, err
}

const partSuffix = ".part"

// removeStaleParts deletes temporary files left in dir by a process killed
// during a download more than an hour ago.
func removeStaleParts(dir string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		if !strings.HasPrefix(e.Name(), ".") || !strings.HasSuffix(e.Name(), partSuffix) {
			continue
		}
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > time.Hour {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

type progressReader struct {
	r      io.Reader
	w      io.Writer
	name   string
	total  int64
	n      int64
	last   time.Time
	shown  bool
	closed bool
}

func (p *progressReader) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	p.n += int64(n)
	if now := time.Now(); now.Sub(p.last) > 250*time.Millisecond {
		p.last = now
		p.shown = true
		fmt.Fprintf(p.w, "\rdatasets: downloading %s: %5.1f%% of %.1f MB", p.name, 100*float64(p.n)/float64(p.total), float64(p.total)/1e6)
	}
	return n, err
}

func (p *progressReader) finish() {
	if p.shown && !p.closed {
		p.closed = true
		fmt.Fprintf(p.w, "\rdatasets: downloading %s: %5.1f%% of %.1f MB\n", p.name, 100*float64(p.n)/float64(p.total), float64(p.total)/1e6)
	}
}

// Missing reports whether err means the data are not available here
// (wraps ErrNotAvailable).
func Missing(err error) bool { return errors.Is(err, ErrNotAvailable) }

// RequireData reports whether DIMRED_REQUIRE_DATA=1, under which tests
// must fail rather than skip when data are missing.
func RequireData() bool { return os.Getenv("DIMRED_REQUIRE_DATA") == "1" }

// Skippable reports whether a test should skip on err: the data are
// missing and DIMRED_REQUIRE_DATA is not 1.
func Skippable(err error) bool { return Missing(err) && !RequireData() }

// FetchSettings tunes Fetch; nil or the zero value is silent.
type FetchSettings struct {
	// Progress, if not nil, receives the progress of downloads over
	// ProgressThreshold bytes (a command line tool passes os.Stderr).
	Progress io.Writer
	// Report, if not nil, is called once per file with its resolved path
	// or error.
	Report func(f File, path string, err error)
}

// Fetch makes sure every file of the named datasets (all when none are
// named) is in the mirror or the cache, downloading what is missing. It
// returns the first error after trying every file. The loaders resolve
// their files the same way but silently.
func Fetch(s *FetchSettings, datasets ...string) error {
	if s == nil {
		s = &FetchSettings{}
	}
	var first error
	for _, f := range registry {
		if len(datasets) > 0 && !contains(datasets, f.Dataset) {
			continue
		}
		p, _, err := resolve(f, false, s.Progress)
		if s.Report != nil {
			s.Report(f, p, err)
		}
		if err != nil && first == nil {
			first = err
		}
	}
	return first
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}
