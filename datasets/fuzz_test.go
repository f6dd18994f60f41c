package datasets

import (
	"archive/zip"
	"bytes"
	"errors"
	"testing"
)

// The text parsers must never panic on malformed input and must report
// every failure as ErrParse. Seeds are in testdata/fuzz/<FuzzName>/ (plus
// the f.Add cases); run one with e.g.
//
//	go test ./datasets -run '^$' -fuzz FuzzParseMatrix -fuzztime 30s

func checkParseErr(t *testing.T, err error) {
	t.Helper()
	if err != nil && !errors.Is(err, ErrParse) {
		t.Fatalf("error %v does not wrap ErrParse", err)
	}
}

func FuzzParseMatrix(f *testing.F) {
	f.Add([]byte("1 2 3\n4 5 6\n"), 0)
	f.Add([]byte("   3.3150000e-01\t   2.1560000e-01\t\r\n"), 2)
	f.Fuzz(func(t *testing.T, b []byte, cols int) {
		if cols < 0 || cols > 1000 {
			return
		}
		m, err := parseMatrix("f", b, cols)
		checkParseErr(t, err)
		if err == nil && cols > 0 {
			if _, c := m.Dims(); c != cols {
				t.Fatalf("%d columns, want %d", c, cols)
			}
		}
	})
}

func FuzzParseOneHot(f *testing.F) {
	f.Add([]byte("1 0 0\n0 1 0\n0 0 1\n"))
	f.Add([]byte("   1.0000000e+00\t   0.0000000e+00\t   0.0000000e+00\t\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		labels, err := parseOneHot("f", b, 3)
		checkParseErr(t, err)
		for _, l := range labels {
			if l < 0 || l > 2 {
				t.Fatalf("label %d", l)
			}
		}
	})
}

func FuzzParsePGM(f *testing.F) {
	f.Add([]byte("P5\n3 2\n255\n\x00\xff\x00\xff\x00\xff"))
	f.Add([]byte("P5 # comment\n2 2 15\n\x01\x02\x03\x04"))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := parsePGM("f", b)
		checkParseErr(t, err)
		if err == nil {
			if r, c := m.Dims(); r*c > len(b) {
				t.Fatalf("%d×%d image from %d bytes", r, c, len(b))
			}
		}
	})
}

func FuzzParseEuropeDistance(f *testing.F) {
	f.Add([]byte("52.4,4.9,0,1846\n38,23.7,2970,0\n"), 2)
	f.Add([]byte("1,2,0,\"#DIV/0!\",3\n1,2,\"#DIV/0!\",0,4\n1,2,5,6,0\n"), 3)
	f.Fuzz(func(t *testing.T, b []byte, n int) {
		if n < -1 || n > 60 {
			return
		}
		latlon, km, err := parseEuropeDistance("f", b, n)
		checkParseErr(t, err)
		if err == nil {
			if r, _ := latlon.Dims(); r != n || km.SymmetricDim() != n {
				t.Fatal("size")
			}
			imputeShortestPaths(km)
		}
	})
}

func FuzzUnTeX(f *testing.F) {
	for _, s := range []string{`Ath\'inai`, `K\o{}benhavn`, `Z\"urich`, `Hoek_van_Holland`, `\`, `\'{`, `{\aa}`, `\o`, "\xff\\\"\xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_ = unTeXCity(s)
		if _, err := parseLines("f", []byte(s)); err != nil {
			checkParseErr(t, err)
		}
	})
}

func FuzzParseRDist(f *testing.F) {
	f.Add([]byte("rownames,x\n1,3313\n2,2963\n3,3175\n"), 3)
	f.Add([]byte("\"\",\"x\"\n\"1\",5\n"), 2)
	f.Fuzz(func(t *testing.T, b []byte, n int) {
		if n < 0 || n > 50 {
			return
		}
		D, err := parseRDist("f", b, n)
		checkParseErr(t, err)
		if err == nil && D.SymmetricDim() != n {
			t.Fatal("size")
		}
	})
}

func FuzzParseMocapText(f *testing.F) {
	f.Add([]byte("Field\tTime\tL:A:X\tL:A:Y\tL:A:Z\tL:B:X\tL:B:Y\tL:B:Z\r\n2\t0.0083\t-2396.6\t-1799.2\t1327.8\t-9999.99\t-9999.99\t-9999.99\r\n"))
	f.Add([]byte("Field\tTime\tA:X\tA:Y\tA:Z\n1\t0\t1\t2\t3\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		markers, frames, err := parseMocapText("f", b)
		checkParseErr(t, err)
		for _, fr := range frames {
			if len(fr) != 3*len(markers) {
				t.Fatal("frame width")
			}
		}
	})
}

func FuzzParseConnections(f *testing.F) {
	f.Add([]byte("LFHD, RFHD\nRFHD, RBHD\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		_, err := parseConnections("f", b)
		checkParseErr(t, err)
	})
}

func FuzzParseRobot(f *testing.F) {
	f.Add([]byte("1135214648.218000 00:0f:04:02:07:f0 23.40 5.55 -62\n1135214648.218000 00:0f:04:02:0b:f0 23.40 5.55 -90\n1135214649.1 00:0f:04:02:0b:f0 23.5 5.6 -80\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		Y, T, macs, times, err := parseRobot("f", b)
		checkParseErr(t, err)
		if err == nil {
			r, c := Y.Dims()
			if tr, _ := T.Dims(); r != len(times) || c != len(macs) || tr != r {
				t.Fatal("sizes")
			}
		}
	})
}

func FuzzParseSpellman(f *testing.F) {
	f.Add([]byte("\tcln3-1\tclb\tclb2-1\talpha\talpha0\nYAL001C\t0.15\t\t-0.22\t\t0.1\nYAL002W\t\t\t1\t\t\n"))
	f.Add([]byte("\ta\nG\t1\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		sp, err := parseSpellman("f", b)
		checkParseErr(t, err)
		if err == nil {
			n := len(sp.arrays)
			if len(sp.labels) != n || len(sp.values) != n*len(sp.genes) || len(sp.observed) != len(sp.values) {
				t.Fatal("sizes")
			}
			for _, l := range sp.labels {
				if l < 0 || l >= len(sp.groups) {
					t.Fatalf("label %d of %d groups", l, len(sp.groups))
				}
			}
		}
	})
}

func FuzzParseUSPS(f *testing.F) {
	row := []byte("6.0000")
	for range 256 {
		row = append(row, " -1.0000"...)
	}
	f.Add(append(row, '\n'))
	f.Add([]byte("1 2 3\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		Y, labels, err := parseUSPS("f", b)
		checkParseErr(t, err)
		if err == nil {
			if r, c := Y.Dims(); r != len(labels) || c != 256 {
				t.Fatal("sizes")
			}
		}
	})
}

func FuzzUnzipOne(f *testing.F) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, _ := zw.Create("run.txt")
	w.Write([]byte("Field\tTime\tA:X\tA:Y\tA:Z\n1\t0\t1\t2\t3\n"))
	zw.Close()
	f.Add(buf.Bytes())
	f.Add([]byte("PK\x03\x04"))
	f.Fuzz(func(t *testing.T, b []byte) {
		_, txt, err := unzipOne("f", b)
		checkParseErr(t, err)
		if err == nil {
			_, _, err = parseMocapText("f", txt)
			checkParseErr(t, err)
		}
	})
}

// fastFloat must agree exactly with strconv.ParseFloat.
func FuzzFastFloat(f *testing.F) {
	for _, s := range []string{"-1.0000", "0.8620", "6.0000", "1e5", "123456789012345", "0.1234567890123456", "-.5", "5.", ".", "-", "+3.25", "NaN", "1_0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := fastFloat([]byte(s))
		want, wok := parseFloat(s)
		if ok != wok || (ok && got != want) {
			t.Fatalf("fastFloat(%q) = %v, %v; ParseFloat %v, %v", s, got, ok, want, wok)
		}
	})
}
