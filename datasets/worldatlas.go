package datasets

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
)

// worldAtlasFile is the npm tarball of the world-atlas package (Natural
// Earth 4.1.0 as TopoJSON), registered with its SHA-256 like the data
// files but fetched into the cache only (it is not in the mirror).
const worldAtlasFile = "world-atlas-2.0.2.tgz"

// Coastlines returns the coastlines of Natural Earth's land polygons at
// scale "110m" (1:110 million) or "50m" (1:50 million), as polylines of
// (longitude, latitude) in degrees. The source is Natural Earth (public
// domain) redistributed as TopoJSON by the npm package world-atlas 2.0.2
// (M. Bostock, ISC licence); the tarball is downloaded into the user
// cache on first use and verified against its SHA-256. Every arc of the
// land topology is a piece of coastline, so the arcs are returned as they
// are, decoded from the quantised, delta-encoded TopoJSON.
//
// Offline and without a cached copy the error wraps ErrNotAvailable;
// callers draw without a coastline.
func Coastlines(scale string) ([][][2]float64, error) {
	if scale != "110m" && scale != "50m" {
		panic(fmt.Sprintf("datasets: Coastlines scale %q, want 110m or 50m", scale))
	}
	b, err := readFile("world_atlas", worldAtlasFile)
	if err != nil {
		return nil, err
	}
	name := "package/land-" + scale + ".json"
	js, err := untgzOne("world_atlas/"+worldAtlasFile, b, name)
	if err != nil {
		return nil, err
	}
	return topoJSONArcs("world_atlas/"+worldAtlasFile+":"+name, js)
}

// untgzOne returns the contents of the member name of a gzipped tar
// archive (at most 64 MB).
func untgzOne(file string, b []byte, name string) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, parseErr(file, 0, "not gzip: %v", err)
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil, parseErr(file, 0, "no %s in the archive", name)
		}
		if err != nil {
			return nil, parseErr(file, 0, "reading the tar archive: %v", err)
		}
		if h.Name != name {
			continue
		}
		const limit = 64 << 20
		out, err := io.ReadAll(io.LimitReader(tr, limit+1))
		if err != nil {
			return nil, parseErr(file, 0, "reading %s: %v", name, err)
		}
		if len(out) > limit {
			return nil, parseErr(file, 0, "%s is larger than %d bytes", name, limit)
		}
		return out, nil
	}
}

// topoJSONArcs decodes the arcs of a TopoJSON topology (TopoJSON
// specification §2.1.3–2.1.4): with a transform, each arc's positions are
// quantised and delta-encoded, so position k is the running sum of the
// first k+1 pairs, mapped by x·scale + translate; without one they are
// absolute coordinates.
func topoJSONArcs(file string, b []byte) ([][][2]float64, error) {
	var topo struct {
		Type      string        `json:"type"`
		Arcs      [][][]float64 `json:"arcs"`
		Transform *struct {
			Scale     [2]float64 `json:"scale"`
			Translate [2]float64 `json:"translate"`
		} `json:"transform"`
	}
	if err := json.Unmarshal(b, &topo); err != nil {
		return nil, parseErr(file, 0, "not JSON: %v", err)
	}
	if topo.Type != "Topology" {
		return nil, parseErr(file, 0, "type %q, want Topology", topo.Type)
	}
	out := make([][][2]float64, len(topo.Arcs))
	for a, arc := range topo.Arcs {
		line := make([][2]float64, len(arc))
		var x, y float64
		for k, pos := range arc {
			if len(pos) < 2 {
				return nil, parseErr(file, 0, "arc %d position %d has %d coordinates", a, k, len(pos))
			}
			if t := topo.Transform; t != nil {
				x, y = x+pos[0], y+pos[1]
				line[k] = [2]float64{x*t.Scale[0] + t.Translate[0], y*t.Scale[1] + t.Translate[1]}
			} else {
				line[k] = [2]float64{pos[0], pos[1]}
			}
		}
		out[a] = line
	}
	return out, nil
}
