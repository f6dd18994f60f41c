package datasets

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Unusable local paths are errors wrapping ErrCache that name the path and
// say what to change, not raw OS errors; the cache is never searched
// through a bad entry silently.
func TestLocalPathErrors(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("unexpected download of %s", r.URL)
	}))
	defer srv.Close()
	f := fakeFile(srv, "x.txt", []byte("hello"))
	t.Setenv("DIMRED_OFFLINE", "1")

	cases := []struct {
		name   string
		setup  func(t *testing.T, cache string)
		advice string
	}{
		{"directory where the file should be", func(t *testing.T, cache string) {
			mustMkdir(t, filepath.Join(cache, "fake", "x.txt"))
		}, "directory is where the file should be"},
		{"symlink loop", func(t *testing.T, cache string) {
			mustMkdir(t, filepath.Join(cache, "fake"))
			p := filepath.Join(cache, "fake", "x.txt")
			if err := os.Symlink(p, p); err != nil {
				t.Skip(err)
			}
		}, "symbolic-link loop"},
		{"unreadable file", func(t *testing.T, cache string) {
			if os.Geteuid() == 0 {
				t.Skip("root reads every file")
			}
			mustMkdir(t, filepath.Join(cache, "fake"))
			p := filepath.Join(cache, "fake", "x.txt")
			if err := os.WriteFile(p, []byte("hello"), 0o000); err != nil {
				t.Fatal(err)
			}
		}, "permissions"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cache := isolate(t, "")
			c.setup(t, cache)
			_, _, err := resolve(f, true, nil)
			if !errors.Is(err, ErrCache) || !strings.Contains(err.Error(), "x.txt") || !strings.Contains(err.Error(), c.advice) {
				t.Errorf("err = %v, want ErrCache naming x.txt with %q", err, c.advice)
			}
		})
	}

	// Permission errors as root cannot be produced by chmod; check the
	// wrapping of the error itself.
	t.Run("permission error", func(t *testing.T) {
		dir := t.TempDir()
		p := filepath.Join(dir, "x.txt")
		err := localError(&os.PathError{Op: "open", Path: p, Err: syscall.EACCES}, p, "DIMRED_CACHE", dir)
		if !errors.Is(err, ErrCache) || !errors.Is(err, os.ErrPermission) || !strings.Contains(err.Error(), "permissions") {
			t.Errorf("err = %v", err)
		}
	})

	// DIMRED_CACHE names a regular file.
	t.Run("DIMRED_CACHE is a file", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "notadir")
		if err := os.WriteFile(file, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		isolate(t, "")
		t.Setenv("DIMRED_CACHE", file)
		_, _, err := resolve(f, true, nil)
		if !errors.Is(err, ErrCache) || !strings.Contains(err.Error(), "DIMRED_CACHE="+file+" is a regular file") {
			t.Errorf("err = %v, want ErrCache saying DIMRED_CACHE is a regular file", err)
		}
	})

	// The same in the mirror.
	t.Run("directory in the mirror", func(t *testing.T) {
		mirror := t.TempDir()
		mustMkdir(t, filepath.Join(mirror, "fake", "x.txt"))
		isolate(t, mirror)
		_, _, err := resolve(f, true, nil)
		if !errors.Is(err, ErrCache) || !strings.Contains(err.Error(), "directory is where the file should be") {
			t.Errorf("err = %v, want ErrCache", err)
		}
	})
}

// A corrupt download says what happened to it and what to do next, as a
// corrupt cache file does.
func TestCorruptDownloadAdvice(t *testing.T) {
	good, bad := body(1000), body(1000)
	bad[10] ^= 1
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(bad) }))
	defer srv.Close()
	isolate(t, "")
	useClient(t, srv.Client())
	_, _, err := resolve(fakeFile(srv, "y.txt", good), true, nil)
	if !errors.Is(err, ErrChecksum) {
		t.Fatalf("err = %v, want ErrChecksum", err)
	}
	for _, want := range []string{"discarded", "try again", "DIMRED_DATA"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}

// Files returns a copy: changing it changes nothing the package verifies.
func TestFilesIsACopy(t *testing.T) {
	fs := Files()
	want := fs[0].SHA256
	fs[0].SHA256 = strings.Repeat("0", 64)
	if f, err := Lookup(fs[0].Dataset, fs[0].Name); err != nil || f.SHA256 != want {
		t.Errorf("Lookup after changing Files(): %v, %v", f.SHA256, err)
	}
}

func mustMkdir(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
}
