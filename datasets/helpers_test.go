package datasets

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// need skips (or, under DIMRED_REQUIRE_DATA=1, fails) when err says the
// data are missing, and fails on any other error.
func need(t testing.TB, err error) {
	t.Helper()
	if err == nil {
		return
	}
	if Skippable(err) {
		t.Skip(err)
	}
	t.Fatal(err)
}

// needMirror returns the mirror directory or skips/fails as need does.
func needMirror(t testing.TB) string {
	t.Helper()
	dir, err := MirrorDir()
	if err != nil {
		t.Fatal(err)
	}
	if dir == "" {
		need(t, errors.Join(ErrNotAvailable, errors.New("DIMRED_DATA is unset")))
	}
	if _, err := os.Stat(filepath.Join(dir, "MANIFEST.tsv")); err != nil {
		need(t, errors.Join(ErrNotAvailable, err))
	}
	return dir
}

// isolate points the cache at a fresh temporary directory, and the mirror
// at mirror ("" unsets it), for the duration of the test. It also clears
// DIMRED_OFFLINE, so the download tests (against a local test server) run
// the same when the caller has set it; tests of offline behaviour set it
// themselves.
func isolate(t *testing.T, mirror string) string {
	t.Helper()
	cache := t.TempDir()
	t.Setenv("DIMRED_CACHE", cache)
	t.Setenv("DIMRED_DATA", mirror)
	t.Setenv("DIMRED_OFFLINE", "")
	return cache
}
