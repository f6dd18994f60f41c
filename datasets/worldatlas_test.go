package datasets

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"math"
	"testing"
)

// A quantised topology with two arcs, decoded by hand from the TopoJSON
// specification's rule (running sums, then x·scale + translate).
const topoFixture = `{"type":"Topology","transform":{"scale":[0.5,0.25],"translate":[-10,40]},
 "objects":{"land":{"type":"GeometryCollection","geometries":[]}},
 "arcs":[[[0,0],[2,4],[-1,-4]],[[10,0],[0,8]]]}`

func TestTopoJSONArcs(t *testing.T) {
	arcs, err := topoJSONArcs("fixture", []byte(topoFixture))
	if err != nil {
		t.Fatal(err)
	}
	want := [][][2]float64{
		{{-10, 40}, {-9, 41}, {-9.5, 40}},
		{{-5, 40}, {-5, 42}},
	}
	if len(arcs) != len(want) {
		t.Fatalf("%d arcs, want %d", len(arcs), len(want))
	}
	for a := range want {
		if len(arcs[a]) != len(want[a]) {
			t.Fatalf("arc %d: %d positions, want %d", a, len(arcs[a]), len(want[a]))
		}
		for k := range want[a] {
			for c := 0; c < 2; c++ {
				if math.Abs(arcs[a][k][c]-want[a][k][c]) > 1e-12 {
					t.Errorf("arc %d position %d: %v, want %v", a, k, arcs[a][k], want[a][k])
				}
			}
		}
	}
	// Without a transform positions are absolute.
	abs, err := topoJSONArcs("fixture", []byte(`{"type":"Topology","arcs":[[[1,2],[3,4]]]}`))
	if err != nil || abs[0][1] != [2]float64{3, 4} {
		t.Errorf("absolute arcs %v, %v", abs, err)
	}
	for _, bad := range []string{`{"type":"FeatureCollection"}`, `{`, `{"type":"Topology","arcs":[[[1]]]}`} {
		if _, err := topoJSONArcs("bad", []byte(bad)); !errors.Is(err, ErrParse) {
			t.Errorf("%s: error %v, want ErrParse", bad, err)
		}
	}
}

func TestUntgzOne(t *testing.T) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, f := range []struct{ name, body string }{{"package/README.md", "x"}, {"package/land-50m.json", topoFixture}} {
		if err := tw.WriteHeader(&tar.Header{Name: f.name, Mode: 0o644, Size: int64(len(f.body))}); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(f.body))
	}
	tw.Close()
	zw.Close()
	b, err := untgzOne("fixture.tgz", buf.Bytes(), "package/land-50m.json")
	if err != nil || string(b) != topoFixture {
		t.Fatalf("got %q, %v", b, err)
	}
	if _, err := untgzOne("fixture.tgz", buf.Bytes(), "package/land-10m.json"); !errors.Is(err, ErrParse) {
		t.Errorf("missing member: %v, want ErrParse", err)
	}
	if _, err := untgzOne("fixture.tgz", []byte("not gzip"), "x"); !errors.Is(err, ErrParse) {
		t.Errorf("not gzip: %v, want ErrParse", err)
	}
}

// The real tarball, when it can be had (cache or download): Europe's
// coastline at 1:50m has arcs inside the Fig 3.9 window.
func TestCoastlinesReal(t *testing.T) {
	if testing.Short() {
		t.Skip("downloads 2.3 MB on first use")
	}
	arcs, err := Coastlines("50m")
	if errors.Is(err, ErrNotAvailable) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	inside := 0
	for _, a := range arcs {
		for _, p := range a {
			if p[0] > -10 && p[0] < 40 && p[1] > 35 && p[1] < 60 {
				inside++
			}
		}
	}
	if inside < 1000 {
		t.Errorf("%d coastline points in Europe, want many", inside)
	}
	t.Logf("%d arcs, %d points in the Fig 3.9 window", len(arcs), inside)
}
