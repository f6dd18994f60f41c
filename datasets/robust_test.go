package datasets

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// fakeFile registers-in-spirit a file served by srv: its size and sum are
// those of body.
func fakeFile(srv *httptest.Server, name string, body []byte) File {
	sum := sha256.Sum256(body)
	return File{Dataset: "fake", Name: name, Size: int64(len(body)), SHA256: hex.EncodeToString(sum[:]), URL: srv.URL + "/" + name}
}

// listCache returns every path under dir (files and directories).
func listCache(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if p != dir {
			out = append(out, p)
		}
		return nil
	})
	return out
}

// useClient makes downloads go through c for the test.
func useClient(t *testing.T, c *http.Client) {
	old := httpClient
	httpClient = c
	t.Cleanup(func() { httpClient = old })
}

// progressBuf is where the tests' downloads report progress.
func progressBuf() *bytes.Buffer { return new(bytes.Buffer) }

func body(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('a' + i%26)
	}
	return b
}

// A good download lands in the cache (atomically, no temporary files left)
// and is found there the next time; over 1 MB it reports progress.
func TestDownloadIntoCache(t *testing.T) {
	content := body(ProgressThreshold + 100)
	hits := 0
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits++
		w.Write(content)
	}))
	defer srv.Close()
	cache := isolate(t, "")
	useClient(t, srv.Client())
	progress := progressBuf()
	f := fakeFile(srv, "big.bin", content)
	p, b, err := resolve(f, true, progress)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(cache, "fake", "big.bin"); p != want || !bytes.Equal(b, content) {
		t.Errorf("path %s (want %s), %d bytes", p, want, len(b))
	}
	if got := listCache(t, cache); len(got) != 2 { // fake/ and fake/big.bin
		t.Errorf("cache holds %v", got)
	}
	if !strings.Contains(progress.String(), "downloading fake/big.bin") || !strings.Contains(progress.String(), "100.0%") {
		t.Errorf("progress output %q", progress.String())
	}
	if _, _, err := resolve(f, false, nil); err != nil || hits != 1 {
		t.Errorf("second lookup: err %v, %d downloads", err, hits)
	}
}

// A download whose content does not match the registry's sum is an error
// naming the file and both sums, and leaves the cache empty.
func TestDownloadChecksumMismatch(t *testing.T) {
	good, bad := body(1000), body(1000)
	bad[500] ^= 1
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(bad) }))
	defer srv.Close()
	cache := isolate(t, "")
	useClient(t, srv.Client())
	f := fakeFile(srv, "x.txt", good)
	_, _, err := resolve(f, true, nil)
	if !errors.Is(err, ErrChecksum) {
		t.Fatalf("err = %v, want ErrChecksum", err)
	}
	badSum := sha256.Sum256(bad)
	for _, want := range []string{"fake/x.txt", f.SHA256, hex.EncodeToString(badSum[:])} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %s", err, want)
		}
	}
	if got := listCache(t, cache); len(got) != 0 {
		t.Errorf("cache not clean: %v", got)
	}
}

// A download cut off half way (the server dies after sending part of the
// body) is an error and leaves nothing in the cache.
func TestDownloadInterrupted(t *testing.T) {
	content := body(200000)
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(len(content)))
		w.Write(content[:len(content)/2])
		w.(http.Flusher).Flush()
		panic(http.ErrAbortHandler)
	}))
	defer srv.Close()
	srv.Config.ErrorLog = nil
	cache := isolate(t, "")
	useClient(t, srv.Client())
	f := fakeFile(srv, "cut.txt", content)
	_, _, err := resolve(f, true, nil)
	if !Missing(err) {
		t.Fatalf("err = %v, want ErrNotAvailable", err)
	}
	if !strings.Contains(err.Error(), "fake/cut.txt") {
		t.Errorf("error %q does not name the file", err)
	}
	if got := listCache(t, cache); len(got) != 0 {
		t.Errorf("cache not clean: %v", got)
	}
	// A truncated body with an honest length is caught by the size check.
	short := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(content[:1000]) }))
	defer short.Close()
	useClient(t, short.Client())
	f = fakeFile(short, "short.txt", content)
	if _, _, err := resolve(f, true, nil); !errors.Is(err, ErrChecksum) || !strings.Contains(err.Error(), "got 1000 bytes") {
		t.Errorf("truncated download: %v", err)
	}
	if got := listCache(t, cache); len(got) != 0 {
		t.Errorf("cache not clean: %v", got)
	}
}

// An HTTP error status is reported and leaves the cache clean.
func TestDownloadHTTPError(t *testing.T) {
	srv := httptest.NewTLSServer(http.NotFoundHandler())
	defer srv.Close()
	cache := isolate(t, "")
	useClient(t, srv.Client())
	_, _, err := resolve(fakeFile(srv, "gone.txt", []byte("x")), true, nil)
	if !Missing(err) || !strings.Contains(err.Error(), "404") {
		t.Errorf("err = %v", err)
	}
	if got := listCache(t, cache); len(got) != 0 {
		t.Errorf("cache not clean: %v", got)
	}
}

// Only https URLs are fetched.
func TestDownloadRefusesHTTP(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { t.Error("plain http fetched") }))
	defer srv.Close()
	cache := isolate(t, "")
	_, _, err := resolve(fakeFile(srv, "plain.txt", []byte("x")), true, nil)
	if !Missing(err) || !strings.Contains(err.Error(), "only https") {
		t.Errorf("err = %v", err)
	}
	if got := listCache(t, cache); len(got) != 0 {
		t.Errorf("cache not clean: %v", got)
	}
}

// A redirect to plain http is not followed.
func TestDownloadRefusesHTTPRedirect(t *testing.T) {
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { t.Error("plain http fetched") }))
	defer plain.Close()
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, plain.URL+"/x", http.StatusFound)
	}))
	defer srv.Close()
	cache := isolate(t, "")
	c := srv.Client()
	c.CheckRedirect = httpsOnly
	useClient(t, c)
	_, _, err := resolve(fakeFile(srv, "moved.txt", []byte("x")), true, nil)
	if !Missing(err) || !strings.Contains(err.Error(), "refusing redirect") {
		t.Errorf("err = %v", err)
	}
	if got := listCache(t, cache); len(got) != 0 {
		t.Errorf("cache not clean: %v", got)
	}
}

// A corrupted file in the cache is reported (file and both sums) and
// deleted, so the next lookup downloads it again.
func TestCorruptedCacheFile(t *testing.T) {
	f, err := Lookup("six", "br1561_6.3.pgm")
	if err != nil {
		t.Fatal(err)
	}
	cache := isolate(t, "")
	t.Setenv("DIMRED_OFFLINE", "1")
	p := filepath.Join(cache, "six", "br1561_6.3.pgm")
	os.MkdirAll(filepath.Dir(p), 0o755)
	os.WriteFile(p, []byte("P5\n57 64\n255\nnot the six"), 0o644)
	_, err = Six()
	if !errors.Is(err, ErrChecksum) {
		t.Fatalf("err = %v, want ErrChecksum", err)
	}
	for _, want := range []string{"six/br1561_6.3.pgm", f.SHA256, "got 24 bytes"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not contain %q", err, want)
		}
	}
	if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("corrupted cache file not deleted: %v", err)
	}
	// Next time: offline and no mirror, so not available, with the hint.
	if _, err := Six(); !Missing(err) {
		t.Errorf("after deletion: %v", err)
	}
}

// A corrupted file in the mirror is reported and the mirror left alone.
func TestCorruptedMirrorFile(t *testing.T) {
	mirror := t.TempDir()
	cache := isolate(t, mirror)
	p := filepath.Join(mirror, "oil", "DataTrn.txt")
	os.MkdirAll(filepath.Dir(p), 0o755)
	os.WriteFile(p, []byte("1 2 3\n"), 0o644)
	_, err := Oil("train")
	if !errors.Is(err, ErrChecksum) || !strings.Contains(err.Error(), "oil/DataTrn.txt") || !strings.Contains(err.Error(), "mirror") {
		t.Fatalf("err = %v", err)
	}
	if _, err := os.Stat(p); err != nil {
		t.Errorf("mirror file touched: %v", err)
	}
	if got := listCache(t, cache); len(got) != 0 {
		t.Errorf("cache not clean: %v", got)
	}
}

// Offline with no mirror: ErrNotAvailable, a message saying how to set
// DIMRED_DATA, and nothing written to the cache — both with downloads
// disabled and with a network that fails.
func TestOffline(t *testing.T) {
	cache := isolate(t, "")
	t.Setenv("DIMRED_OFFLINE", "1")
	_, err := Stick()
	if !Missing(err) || Skippable(err) == RequireData() {
		t.Fatalf("err = %v", err)
	}
	for _, want := range []string{"stick/run1TXT.ZIP", "DIMRED_DATA", "absolute path", "fetch-data"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("offline error %q lacks %q", err, want)
		}
	}
	t.Setenv("DIMRED_OFFLINE", "")
	useClient(t, &http.Client{Transport: failingTransport{}})
	if _, err := Oil("train"); !Missing(err) || !strings.Contains(err.Error(), "DIMRED_DATA") || !strings.Contains(err.Error(), "network is down") {
		t.Errorf("network failure: %v", err)
	}
	// A file without a public URL says so.
	if _, err := Path("usps", "zip.info.txt"); !Missing(err) || !strings.Contains(err.Error(), "no public download URL") {
		t.Errorf("no-URL file: %v", err)
	}
	if got := listCache(t, cache); len(got) != 0 {
		t.Errorf("cache not clean: %v", got)
	}
}

type failingTransport struct{}

func (failingTransport) RoundTrip(*http.Request) (*http.Response, error) {
	return nil, errors.New("network is down")
}

// Stale temporary files of a killed download are removed; fresh ones (a
// concurrent download) are not.
func TestRemoveStaleParts(t *testing.T) {
	dir := t.TempDir()
	stale := filepath.Join(dir, ".x.txt.123"+partSuffix)
	fresh := filepath.Join(dir, ".x.txt.456"+partSuffix)
	other := filepath.Join(dir, "x.txt")
	for _, p := range []string{stale, fresh, other} {
		os.WriteFile(p, nil, 0o644)
	}
	old := time.Now().Add(-2 * time.Hour)
	os.Chtimes(stale, old, old)
	os.Chtimes(other, old, old)
	removeStaleParts(dir)
	if _, err := os.Stat(stale); err == nil {
		t.Error("stale part file kept")
	}
	for _, p := range []string{fresh, other} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s removed", p)
		}
	}
}

// Parser errors name the file and the line.
func TestParseErrorsNameFileAndLine(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"matrix", func() error { _, err := parseMatrix("oil/DataTrn.txt", []byte("1 2\n3 4\n5 x\n"), 2); return err }(), `oil/DataTrn.txt line 3: field 2: "x"`},
		{"matrix width", func() error { _, err := parseMatrix("a.txt", []byte("1 2\n\n3\n"), 2); return err }(), "a.txt line 3: 1 fields, want 2"},
		{"one-hot", func() error { _, err := parseOneHot("l.txt", []byte("1 0 0\n1 1 0\n"), 3); return err }(), "l.txt line 2: more than one 1"},
		{"robot", func() error { _, _, _, _, err := parseRobot("r.txt", []byte("1 m 2 3 -50\n2 m 2 3\n")); return err }(), "r.txt line 2: 4 fields"},
		{"europe", func() error {
			_, _, err := parseEuropeDistance("e.csv", []byte("1,2,0,5\n1,2,x,0\n"), 2)
			return err
		}(), `e.csv line 2: field 3: "x"`},
		{"eurodist", func() error { _, err := parseRDist("d.csv", []byte("rownames,x\n1,5\n3,6\n"), 3); return err }(), `d.csv line 3: index "3", want 2`},
		{"usps", func() error { _, _, err := parseUSPS("u.txt", []byte("1 2\n")); return err }(), "u.txt line 1: 2 fields"},
		{"spellman", func() error { _, err := parseSpellman("s.txt", []byte("\ta\tb\ng\t1\t2\nh\t1\tz\n")); return err }(), `s.txt line 3: column 3 ("b"): "z"`},
		{"pgm", func() error { _, err := parsePGM("p.pgm", []byte("P5\n# c\n3 x\n255\n")); return err }(), `p.pgm line 3: height "x"`},
		{"mocap", func() error {
			_, _, err := parseMocapText("m.txt", []byte("Field\tTime\tL:A:X\tL:A:Y\tL:A:Z\n1\t0\t1\t2\t3\n2\t0\t1\t2\n"))
			return err
		}(), "m.txt line 3: 4 fields, want 5"},
		{"connections", func() error { _, err := parseConnections("c.txt", []byte("A, B\nC\n")); return err }(), `c.txt line 2: "C"`},
	} {
		if !errors.Is(tc.err, ErrParse) || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("%s: error %v, want it to contain %q", tc.name, tc.err, tc.want)
		}
	}
}
