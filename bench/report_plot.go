package bench

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"sort"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	_ "gonum.org/v1/plot/vg/vgimg" // png
	_ "gonum.org/v1/plot/vg/vgsvg" // svg
)

// PlotFormat is the image format WritePlot uses for a file name: "png" or
// "svg" by extension, or an error for anything else.
func PlotFormat(path string) (string, error) {
	switch ext := strings.ToLower(strings.TrimPrefix(filepath.Ext(path), ".")); ext {
	case "png", "svg":
		return ext, nil
	default:
		return "", fmt.Errorf("plot file %q: want a .png or .svg name", path)
	}
}

// WritePlot draws results as grouped bar charts of ns per row, one panel
// each for row decoding, row encoding and casts (those present): bars are
// implementations (and Velox's published figure), grouped by shape or
// expression. format is "png" or "svg".
func WritePlot(w io.Writer, results []Result, format string) error {
	panels := plotPanels(results)
	if len(panels) == 0 {
		return fmt.Errorf("plot: no results to draw")
	}
	plots := make([][]*plot.Plot, len(panels))
	for i, p := range panels {
		pl, err := p.plot()
		if err != nil {
			return err
		}
		plots[i] = []*plot.Plot{pl}
	}
	const panelHeight = 3.6 * vg.Inch
	canvas, err := draw.NewFormattedCanvas(12*vg.Inch, panelHeight*vg.Length(len(panels)), format)
	if err != nil {
		return err
	}
	tiles := draw.Tiles{Rows: len(panels), Cols: 1, PadY: vg.Millimeter * 4, PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2}
	cells := plot.Align(plots, tiles, draw.New(canvas))
	for i := range plots {
		plots[i][0].Draw(cells[i][0])
	}
	_, err = canvas.WriteTo(w)
	return err
}

// panel is one bar chart: values[series][category] in ns per row.
type panel struct {
	title      string
	categories []string
	series     []string
	values     map[string]map[string]float64
	rotate     bool // long category names
}

func (p *panel) add(category, series string, v float64) {
	if p.values == nil {
		p.values = map[string]map[string]float64{}
	}
	if !contains(p.categories, category) {
		p.categories = append(p.categories, category)
	}
	if !contains(p.series, series) {
		p.series = append(p.series, series)
	}
	if p.values[series] == nil {
		p.values[series] = map[string]float64{}
	}
	p.values[series][category] = v
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// plotPanels sorts results into the decode, encode and cast panels.
func plotPanels(results []Result) []*panel {
	decode := &panel{title: "row decode (1000 rows per batch), ns/row"}
	encode := &panel{title: "row encode (1000 rows per batch), ns/row"}
	cast := &panel{title: "casts, ns/row", rotate: true}
	for _, r := range results {
		rc, ok := ParseRowCase(Case{Group: r.Group, Name: r.Name})
		switch {
		case ok && rc.Op == OpDeserialize:
			decode.add(rc.Shape, rc.Label(), r.NsPerRow)
			if r.VeloxNsPerRow > 0 {
				decode.add(rc.Shape, "velox (published)", r.VeloxNsPerRow)
			}
		case ok:
			encode.add(rc.Shape, rc.Label(), r.NsPerRow)
		default:
			cast.add(r.Name, r.Group, r.NsPerRow)
		}
	}
	var out []*panel
	for _, p := range []*panel{decode, encode, cast} {
		if len(p.categories) > 0 {
			sort.SliceStable(p.series, func(i, j int) bool { return seriesRank(p.series[i]) < seriesRank(p.series[j]) })
			out = append(out, p)
		}
	}
	return out
}

// seriesRank orders the bars of a row panel: the baseline, the codecs, the
// same with recycled memory, Velox last. Cast groups keep their order.
func seriesRank(s string) int {
	order := []string{"builder", "unsafe", "compact", "builder (recycled)", "unsafe (recycled)", "compact (recycled)", "velox (published)"}
	for i, o := range order {
		if s == o {
			return i
		}
	}
	return len(order)
}

func (p *panel) plot() (*plot.Plot, error) {
	pl := plot.New()
	pl.Title.Text = p.title
	pl.Y.Label.Text = "ns/row"
	pl.Legend.Top = true
	pl.Legend.Left = true
	n := len(p.series)
	// The bars of one category share 80% of the unit spacing on the axis.
	width := vg.Length(math.Min(18, 560/float64(n*len(p.categories))))
	for i, s := range p.series {
		vals := make(plotter.Values, len(p.categories))
		for j, c := range p.categories {
			vals[j] = p.values[s][c]
		}
		bars, err := plotter.NewBarChart(vals, width)
		if err != nil {
			return nil, err
		}
		bars.Color = plotutil.Color(i)
		bars.LineStyle.Width = 0
		bars.Offset = vg.Length(float64(i)-float64(n-1)/2) * width
		pl.Add(bars)
		pl.Legend.Add(s, bars)
	}
	pl.NominalX(p.categories...)
	if p.rotate {
		pl.X.Tick.Label.Rotation = math.Pi / 8
		pl.X.Tick.Label.XAlign = draw.XRight
		pl.X.Tick.Label.YAlign = draw.YCenter
	}
	// Room above the tallest bar for the legend, and half a slot beside the
	// outer categories so their bars stay inside the axes.
	top := 0.0
	for _, byCat := range p.values {
		for _, v := range byCat {
			top = math.Max(top, v)
		}
	}
	pl.Y.Min, pl.Y.Max = 0, top*(1.15+0.07*float64(n))
	pl.X.Min, pl.X.Max = -0.5, float64(len(p.categories))-0.5
	return pl, nil
}
