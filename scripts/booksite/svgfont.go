package main

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"codeberg.org/go-fonts/liberation/liberationserifregular"
)

// The figures' SVGs (gonum/plot's vgsvg) name one font, "Liberation
// Serif", with no fallback. Where it is not installed the browser draws
// the text in its default serif, usually wider (DejaVu Serif), and legend
// labels run over their swatches. The site's copies of the SVGs therefore
// carry the font itself: the Liberation Serif that gonum/plot measured the
// text with (the Go module codeberg.org/go-fonts/liberation), cut down to
// the characters the figures use, in an @font-face rule inside each SVG
// (an SVG shown by <img> may load nothing from outside itself). The text
// then looks the same on every system; the font-family list ends in
// metric-compatible fonts and the generic serif, should the embedded font
// fail. The committed figure files are not changed.

// svgFontFamily is the embedded font's family name inside the SVGs.
const svgFontFamily = "BookSerif"

// svgFontStack replaces vgsvg's font-family value.
const svgFontStack = "'" + svgFontFamily + "','Liberation Serif','Times New Roman',Times,'Nimbus Roman','TeX Gyre Termes',serif"

var (
	svgTextRE   = regexp.MustCompile(`(?s)<text[^>]*>(.*?)</text>`)
	svgFamilyRE = regexp.MustCompile(`font-family:Liberation Serif(;|")`)
	svgOpenRE   = regexp.MustCompile(`(?s)<svg[^>]*>`)
)

// svgChars returns the characters of the text elements of the SVGs.
func svgChars(svgs [][]byte) string {
	set := map[rune]bool{}
	for _, b := range svgs {
		for _, m := range svgTextRE.FindAllSubmatch(b, -1) {
			for _, r := range html.UnescapeString(string(m[1])) {
				set[r] = true
			}
		}
	}
	rs := make([]rune, 0, len(set))
	for r := range set {
		rs = append(rs, r)
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i] < rs[j] })
	return string(rs)
}

// svgFontFace returns the @font-face rule for the figures' font, subset to
// chars with fontTools (python3-fonttools, installed by scripts/setup) as
// WOFF; without fontTools the whole TrueType font (393 kB) is embedded.
// It also says which of the two it did.
func svgFontFace(chars string) (rule, how string) {
	font, mime, how := liberationserifregular.TTF, "font/ttf", "whole font (fontTools missing)"
	if sub, err := subsetFont(liberationserifregular.TTF, chars); err == nil {
		font, mime, how = sub, "font/woff", fmt.Sprintf("%d characters", len([]rune(chars)))
	}
	return fmt.Sprintf("@font-face{font-family:'%s';src:url(data:%s;base64,%s);}", svgFontFamily, mime,
		base64.StdEncoding.EncodeToString(font)), how
}

// subsetFont cuts ttf down to the glyphs of chars, as WOFF, with fontTools.
func subsetFont(ttf []byte, chars string) ([]byte, error) {
	dir, err := os.MkdirTemp("", "book-font-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	in, text, out := filepath.Join(dir, "font.ttf"), filepath.Join(dir, "chars.txt"), filepath.Join(dir, "font.woff")
	if err := os.WriteFile(in, ttf, 0o644); err != nil {
		return nil, err
	}
	if err := os.WriteFile(text, []byte(chars), 0o644); err != nil {
		return nil, err
	}
	var last error
	// Debian's python3 first: a python3 earlier on PATH (pyenv) may lack fontTools.
	for _, py := range []string{"/usr/bin/python3", "python3"} {
		cmd := exec.Command(py, "-m", "fontTools.subset", in, "--text-file="+text,
			"--flavor=woff", "--layout-features=*", "--output-file="+out)
		if msg, err := cmd.CombinedOutput(); err != nil {
			last = fmt.Errorf("%s -m fontTools.subset: %v: %s", py, err, bytes.TrimSpace(msg))
			continue
		}
		return os.ReadFile(out)
	}
	return nil, last
}

// embedSVGFont returns the SVG with the font rule inside it and the
// fallback stack in every font-family.
func embedSVGFont(svg []byte, rule string) []byte {
	loc := svgOpenRE.FindIndex(svg)
	if loc == nil {
		return svg
	}
	var b bytes.Buffer
	b.Write(svg[:loc[1]])
	b.WriteString("\n<defs><style>" + rule + "</style></defs>")
	b.Write(svgFamilyRE.ReplaceAll(svg[loc[1]:], []byte("font-family:"+svgFontStack+"$1")))
	return b.Bytes()
}

// copyFigures copies the report's figure files into the site, the SVGs
// with their font embedded; it returns how the font was embedded.
func copyFigures(files []string, out string) (string, error) {
	var svgs [][]byte
	for _, f := range files {
		if strings.HasSuffix(f, ".svg") {
			b, err := os.ReadFile(f)
			if err != nil {
				return "", err
			}
			svgs = append(svgs, b)
		}
	}
	rule, how := svgFontFace(svgChars(svgs))
	i := 0
	for _, f := range files {
		dst := filepath.Join(out, f)
		if !strings.HasSuffix(f, ".svg") {
			if err := copyFile(f, dst); err != nil {
				return "", err
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return "", err
		}
		if err := os.WriteFile(dst, embedSVGFont(svgs[i], rule), 0o644); err != nil {
			return "", err
		}
		i++
	}
	return how, nil
}
