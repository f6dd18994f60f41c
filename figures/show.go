package figures

import (
	"fmt"
	"html"
	"math"
	"strings"

	"github.com/janpfeifer/gonb/gonbui"
	"github.com/janpfeifer/gonb/gonbui/protocol"
	"gonum.org/v1/plot/vg"
)

// Show displays a figure in a GoNB notebook as a PNG, followed by its
// caption and a table of the book's numbers beside ours. Outside a notebook
// it does nothing but return rendering errors.
//
// The PNG is rendered at NotebookScale × PNGDPI and displayed at its
// PNGDPI size, so it stays sharp on high-density screens and projectors.
func Show(f *Figure) error {
	png, err := f.pngAt(NotebookScale * PNGDPI)
	if err != nil {
		return err
	}
	if !gonbui.IsNotebook {
		return nil
	}
	w, h := f.Size()
	gonbui.SendData(&protocol.DisplayData{
		Data: map[protocol.MIMEType]any{protocol.MIMEImagePNG: png},
		// Jupyter's image metadata: the display size in CSS pixels.
		Metadata: map[string]any{string(protocol.MIMEImagePNG): map[string]int{
			"width": int(math.Round(float64(w/vg.Inch) * PNGDPI)), "height": int(math.Round(float64(h/vg.Inch) * PNGDPI))}},
	})
	gonbui.DisplayHtml(captionHTML(f))
	// GoNB delivers display data through a pipe and drops what is still
	// pending when the cell's program exits: wait until both arrived.
	gonbui.Sync()
	return nil
}

// ShowSVG displays a figure as true SVG (MIME image/svg+xml), which stays
// sharp when zoomed; Show's PNG is the safer choice for exported notebooks.
func ShowSVG(f *Figure) error {
	svg, err := f.SVG()
	if err != nil {
		return err
	}
	if !gonbui.IsNotebook {
		return nil
	}
	gonbui.SendData(&protocol.DisplayData{
		Data: map[protocol.MIMEType]any{protocol.MIMEImageSVG: string(svg)},
	})
	gonbui.DisplayHtml(captionHTML(f))
	gonbui.Sync() // see Show
	return nil
}

// NotebookScale is the oversampling of the PNGs Show sends to a notebook.
const NotebookScale = 2

// MustShow shows the figure a figure function returned, panicking on its
// error or Show's; it keeps notebook cells to one line:
// figures.MustShow(figures.Fig1_1EggMass1D()).
func MustShow(f *Figure, err error) *Figure {
	if err != nil {
		panic(err)
	}
	if err := Show(f); err != nil {
		panic(err)
	}
	return f
}

func captionHTML(f *Figure) string {
	var b strings.Builder
	fmt.Fprintf(&b, "<p><b>Figure %s.</b> %s <i>[%s; %s]</i></p>", html.EscapeString(f.ID),
		html.EscapeString(f.Caption), html.EscapeString(f.Data), f.Resolve())
	if f.Why != "" {
		fmt.Fprintf(&b, "<p><i>%s</i></p>", html.EscapeString(f.Why))
	}
	if len(f.Numbers) > 0 {
		// Only a number printed in the draft can agree with the book; a
		// reference value (computed independently, not printed) is shown in
		// its own column.
		b.WriteString("<table><tr><th>quantity</th><th>ours</th><th>book</th><th>reference</th><th></th></tr>")
		for _, n := range f.Numbers {
			book, ref, mark := "", "", ""
			switch {
			case n.HasBook():
				book = FormatValue(n.Want())
				if n.Cite != "" {
					book += " <small>(" + html.EscapeString(n.Cite) + ")</small>"
				}
				mark = "✓ book"
			case n.HasReference():
				ref = fmt.Sprintf(`<span title="%s">%s</span>`, html.EscapeString(n.Cite), FormatValue(n.Want()))
				mark = "✓ reference"
			}
			ours := FormatValue(n.Ours)
			switch {
			case n.Kind == KindSeedRange && n.HasBook():
				ours = fmt.Sprintf("median %s, range %s–%s (%d seeds)", FormatValue(n.Ours), FormatValue(n.Lo), FormatValue(n.Hi), n.Seeds)
				mark = "✓ book in seed range"
			case n.Kind == KindOrdering && n.HasBook():
				book, ours, mark = "ordering <small>("+html.EscapeString(n.Cite)+")</small>", "holds", "✓ ordering"
				if !n.Agrees() {
					ours = "fails"
				}
			}
			if !n.Agrees() {
				mark = "✗ " + strings.TrimPrefix(mark, "✓ ")
			}
			fmt.Fprintf(&b, "<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>",
				html.EscapeString(n.Name), ours, book, ref, mark)
		}
		b.WriteString("</table>")
	}
	return b.String()
}

// FormatValue prints a number compactly for tables: "—" for NaN, up to six
// significant digits otherwise.
func FormatValue(v float64) string {
	if math.IsNaN(v) {
		return "—"
	}
	return fmt.Sprintf("%.6g", v)
}
