package datasets

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// loadAll loads every data set once, as a session reproducing the whole
// book would.
func loadAll() error {
	loads := []func() (*Dataset, error){
		func() (*Dataset, error) { return Oil("train") },
		func() (*Dataset, error) { return Oil("test") },
		func() (*Dataset, error) { return Oil("validation") },
		Stick, RobotWireless, RobotWirelessTest, Spellman, Six,
		func() (*Dataset, error) { return EuropeRoads(Cities53) },
		func() (*Dataset, error) { return EuropeRoads(Cities48) },
		Eurodist,
		func() (*Dataset, error) { return USPS("train") },
		func() (*Dataset, error) { return USPS("test") },
	}
	for _, load := range loads {
		if _, err := load(); err != nil {
			return err
		}
	}
	return nil
}

// warmCache copies the mirror into a fresh cache directory and points the
// loaders at it alone (no mirror), as on a user's machine after fetch-data.
func warmCache(tb testing.TB) {
	tb.Helper()
	mirror := needMirror(tb)
	cache := tb.TempDir()
	for _, f := range Files() {
		b, err := os.ReadFile(filepath.Join(mirror, f.Dataset, f.Name))
		if err != nil {
			tb.Fatal(err)
		}
		os.MkdirAll(filepath.Join(cache, f.Dataset), 0o755)
		if err := os.WriteFile(filepath.Join(cache, f.Dataset, f.Name), b, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	tb.Setenv("DIMRED_CACHE", cache)
	tb.Setenv("DIMRED_DATA", "")
	tb.Setenv("DIMRED_OFFLINE", "1")
}

// Issue #4: loading all data sets from a warm cache takes under 2 s in
// total (checksums verified on every load). The time is logged; the check
// allows 3× for a loaded CI machine.
func TestLoadAllWarmCache(t *testing.T) {
	warmCache(t)
	start := time.Now()
	if err := loadAll(); err != nil {
		t.Fatal(err)
	}
	el := time.Since(start)
	t.Logf("all data sets loaded from a warm cache in %v", el.Round(time.Millisecond))
	if el > 6*time.Second {
		t.Errorf("loading all data sets took %v, target under 2 s", el)
	}
}

func BenchmarkLoadAllWarmCache(b *testing.B) {
	warmCache(b)
	for b.Loop() {
		if err := loadAll(); err != nil {
			b.Fatal(err)
		}
	}
}
