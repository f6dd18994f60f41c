package figures

import (
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
)

// subText is plot's plain text handler with subscripts: "Q_{NX}(K)" draws
// NX at 70 % size below the baseline. The default fonts have no subscript
// capitals (and gonum's LaTeX handler no subscripts), so labels such as
// Q_NX(K) need it. Text without "_{" is drawn exactly as text.Plain draws
// it; multi-line text is not supported with subscripts.
type subText struct{ text.Plain }

// subTextHandler is the handler to put in a TextStyle.
var subTextHandler = subText{text.Plain{Fonts: font.DefaultCache}}

// useSubscripts makes the panel's title, axis labels and legend read
// "_{…}" as a subscript.
func useSubscripts(p *plot.Plot) {
	p.Title.TextStyle.Handler = subTextHandler
	p.X.Label.TextStyle.Handler = subTextHandler
	p.Y.Label.TextStyle.Handler = subTextHandler
	p.Legend.TextStyle.Handler = subTextHandler
}

// subScale and subDrop are a subscript's size and its drop below the
// baseline, as fractions of the font size.
const subScale, subDrop = 0.7, 0.22

type textSeg struct {
	s   string
	sub bool
}

// subSegments splits txt at "_{…}" groups.
func subSegments(txt string) []textSeg {
	var out []textSeg
	for {
		i := strings.Index(txt, "_{")
		if i < 0 {
			break
		}
		j := strings.Index(txt[i:], "}")
		if j < 0 {
			break
		}
		if i > 0 {
			out = append(out, textSeg{s: txt[:i]})
		}
		out = append(out, textSeg{s: txt[i+2 : i+j], sub: true})
		txt = txt[i+j+1:]
	}
	if txt != "" {
		out = append(out, textSeg{s: txt})
	}
	return out
}

func (h subText) segFont(fnt font.Font, sub bool) font.Face {
	if sub {
		return h.Fonts.Lookup(fnt, fnt.Size*subScale)
	}
	return h.Fonts.Lookup(fnt, fnt.Size)
}

// Box is the plain box of the text with its subscripts at their size; a
// subscript's drop adds to the depth.
func (h subText) Box(txt string, fnt font.Font) (width, height, depth vg.Length) {
	if !strings.Contains(txt, "_{") {
		return h.Plain.Box(txt, fnt)
	}
	face := h.Fonts.Lookup(fnt, fnt.Size)
	ext := face.Extents()
	height, depth = ext.Ascent, ext.Descent
	for _, s := range subSegments(txt) {
		f := h.segFont(fnt, s.sub)
		width += f.Width(s.s)
		if s.sub {
			d := f.Extents().Descent + subDrop*fnt.Size
			depth = vg.Length(math.Max(float64(depth), float64(d)))
		}
	}
	return width, height, depth
}

// Draw draws the text as text.Plain does, segment by segment.
func (h subText) Draw(c vg.Canvas, txt string, sty text.Style, pt vg.Point) {
	txt = strings.TrimRight(txt, "\n")
	if !strings.Contains(txt, "_{") || strings.Contains(txt, "\n") {
		h.Plain.Draw(c, txt, sty, pt)
		return
	}
	fnt := h.Fonts.Lookup(sty.Font, sty.Font.Size)
	c.SetColor(sty.Color)
	if sty.Rotation != 0 {
		c.Push()
		c.Rotate(sty.Rotation)
	}
	sin64, cos64 := math.Sincos(sty.Rotation)
	cos, sin := vg.Length(cos64), vg.Length(sin64)
	pt.X, pt.Y = pt.Y*sin+pt.X*cos, pt.Y*cos-pt.X*sin
	ht := sty.Height(txt)
	pt.Y += ht*vg.Length(sty.YAlign) - fnt.Extents().Ascent
	w, _, _ := h.Box(txt, sty.Font)
	at := pt.Add(vg.Point{X: vg.Length(sty.XAlign) * w, Y: sty.Font.Size})
	for _, s := range subSegments(txt) {
		f := h.segFont(sty.Font, s.sub)
		q := at
		if s.sub {
			q.Y -= subDrop * sty.Font.Size
		}
		c.FillString(f, q, s.s)
		at.X += f.Width(s.s)
	}
	if sty.Rotation != 0 {
		c.Pop()
	}
}
