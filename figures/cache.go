package figures

// An on-disk cache for results that several notebook cells share. GoNB
// runs every %% cell as a new program, so a sync.Once dies with its cell;
// an expensive result (the chapter-7 comparison: 15 methods × 4 data sets)
// would be recomputed by every cell that draws from it.
//
// Where: os.UserCacheDir()/dimred/nbcache (on Linux ~/.cache/dimred/nbcache),
// one gob file per entry, named <name>-<key>.gob. To clear it, delete that
// folder. To bypass it, set DIMRED_NBCACHE=off: nothing is read or written
// and every result is computed afresh (scripts/reproduce --fresh does this,
// and scripts/test's second notebook execution, which must recompute
// everything to check that the notebooks are deterministic). Any other
// non-empty value of DIMRED_NBCACHE is taken as the cache folder.
//
// The key. An entry is found only under the SHA-256 of everything that
// determines it:
//
//   - the caller's key parts (CacheKey): the data's bytes, the settings;
//   - the code version (CodeVersion): the SHA-256 of every non-test Go
//     source file of the module's dimred, datasets and figures trees and
//     of go.mod and go.sum, read from the working copy the program was
//     built from (runtime.Caller locates it).
//
// So a changed method, figure, loader or dependency gives a new key, and
// an old entry is never served for new code. The one gap — a source edited
// after the program was built but before it ran — is closed by comparing
// times: if any of those files is newer than the running executable, the
// cache is bypassed (computed, not written). The cache is bypassed too
// when the sources cannot be found (a binary built with -trimpath, or
// moved away from its working copy).

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/gob"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"gonum.org/v1/gonum/mat"
)

// CacheEnv is the environment variable that controls the cache: "off"
// disables it; another non-empty value is the cache folder.
const CacheEnv = "DIMRED_NBCACHE"

// CacheDir returns the cache folder and whether the cache is on.
func CacheDir() (string, bool) {
	v := os.Getenv(CacheEnv)
	switch {
	case strings.EqualFold(v, "off"):
		return "", false
	case v != "":
		return v, true
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", false
	}
	return filepath.Join(d, "dimred", "nbcache"), true
}

// CacheKey accumulates the parts of a cache key (SHA-256). Build it with
// NewCacheKey and the adders; each adder writes a type tag and a length,
// so distinct sequences of parts never collide.
type CacheKey struct {
	name string
	h    hash.Hash
}

// NewCacheKey starts the key of the entry called name (a file-name-safe
// word, e.g. "compare").
func NewCacheKey(name string) *CacheKey {
	k := &CacheKey{name: name, h: sha256.New()}
	return k.String(name)
}

func (k *CacheKey) tag(t byte, n int) {
	var b [9]byte
	b[0] = t
	binary.LittleEndian.PutUint64(b[1:], uint64(n))
	k.h.Write(b[:])
}

// String adds s.
func (k *CacheKey) String(s string) *CacheKey {
	k.tag('s', len(s))
	k.h.Write([]byte(s))
	return k
}

// Ints adds v (nil and empty differ).
func (k *CacheKey) Ints(v []int) *CacheKey {
	if v == nil {
		k.tag('0', 0)
		return k
	}
	k.tag('i', len(v))
	var b [8]byte
	for _, x := range v {
		binary.LittleEndian.PutUint64(b[:], uint64(x))
		k.h.Write(b[:])
	}
	return k
}

// Matrix adds the dimensions and the exact bits of every entry of m (nil
// for none).
func (k *CacheKey) Matrix(m mat.Matrix) *CacheKey {
	if m == nil {
		k.tag('0', 0)
		return k
	}
	r, c := m.Dims()
	k.tag('m', r)
	k.tag('m', c)
	var b [8]byte
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			binary.LittleEndian.PutUint64(b[:], math.Float64bits(m.At(i, j)))
			k.h.Write(b[:])
		}
	}
	return k
}

// Sum returns the key's hex digest with the code version included, or
// false when the code version is unknown (the cache is then bypassed).
func (k *CacheKey) Sum() (string, bool) {
	v, ok := CodeVersion()
	if !ok {
		return "", false
	}
	h := sha256.New()
	h.Write(k.h.Sum(nil))
	h.Write([]byte(v))
	return hex.EncodeToString(h.Sum(nil)), true
}

var codeVersion = sync.OnceValues(func() (string, error) { return sourceHash() })

// CodeVersion returns the SHA-256 (hex) of the module's dimred, datasets
// and figures sources and go.mod/go.sum, and whether it is known: false
// when the sources cannot be found or one of them is newer than the running
// executable (see the cache's doc above).
func CodeVersion() (string, bool) {
	v, err := codeVersion()
	return v, err == nil
}

// errNoSources says why the code version is unknown.
var errNoSources = errors.New("figures: module sources not found")

// sourceHash hashes the sources (path and contents, in path order).
func sourceHash() (string, error) {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "", errNoSources
	}
	root := filepath.Dir(filepath.Dir(file))
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil || !bytes.Contains(mod, []byte("module github.com/dimredbook/book")) {
		return "", errNoSources
	}
	files := []string{"go.mod", "go.sum"}
	for _, dir := range []string{"dimred", "datasets", "figures"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			if !d.IsDir() && strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
				rel, _ := filepath.Rel(root, path)
				files = append(files, rel)
			}
			return nil
		})
		if err != nil {
			return "", fmt.Errorf("%w: %v", errNoSources, err)
		}
	}
	sort.Strings(files)
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("%w: %v", errNoSources, err)
	}
	ei, err := os.Stat(exe)
	if err != nil {
		return "", fmt.Errorf("%w: %v", errNoSources, err)
	}
	h := sha256.New()
	for _, f := range files {
		p := filepath.Join(root, f)
		fi, err := os.Stat(p)
		if err != nil {
			return "", fmt.Errorf("%w: %v", errNoSources, err)
		}
		if fi.ModTime().After(ei.ModTime()) {
			return "", fmt.Errorf("figures: %s changed after the program was built", f)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return "", fmt.Errorf("%w: %v", errNoSources, err)
		}
		fmt.Fprintf(h, "%s\x00%d\x00", filepath.ToSlash(f), len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Cached returns the value of compute, through the on-disk cache: when an
// entry for key exists it is decoded and returned (compute is not called,
// fromCache is true); otherwise compute runs and its value, if it returned
// no error, is stored. T must be gob-encodable (exported fields; mat.Dense
// is). An unreadable or undecodable entry is recomputed and replaced; a
// failure to write is ignored (the value is still returned).
func Cached[T any](key *CacheKey, compute func() (T, error)) (v T, fromCache bool, err error) {
	dir, on := CacheDir()
	var path string
	if on {
		if sum, ok := key.Sum(); ok {
			path = filepath.Join(dir, key.name+"-"+sum[:32]+".gob")
		}
	}
	if path != "" {
		if b, err := os.ReadFile(path); err == nil {
			var c T
			if gob.NewDecoder(bytes.NewReader(b)).Decode(&c) == nil {
				return c, true, nil
			}
		}
	}
	v, err = compute()
	if err != nil || path == "" {
		return v, false, err
	}
	var buf bytes.Buffer
	if gob.NewEncoder(&buf).Encode(v) != nil {
		return v, false, nil
	}
	if os.MkdirAll(dir, 0o755) != nil {
		return v, false, nil
	}
	tmp, err := os.CreateTemp(dir, key.name+"-*.tmp")
	if err != nil {
		return v, false, nil
	}
	_, werr := tmp.Write(buf.Bytes())
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Rename(tmp.Name(), path) != nil {
		os.Remove(tmp.Name())
	}
	return v, false, nil
}
