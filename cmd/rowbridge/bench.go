package main

import (
	"bytes"
	"flag"
	"os"
	"regexp"
	"runtime"
	"time"

	"github.com/rowbridge/rowbridge/bench"
	"golang.org/x/term"
)

func init() {
	register(&command{
		name:    "bench",
		summary: "time the row codecs and try_cast in-process and print folly-style tables",
		usage:   "[--filter REGEX] [--json] [--plot out.png|out.svg] [--time D] [--cpu N]",
		flags:   benchFlags,
		examples: []string{
			`rowbridge bench   # every table, about a minute`,
			`rowbridge bench --plot bench.png --json > bench.json`,
			`rowbridge bench --filter '^cast_int/' --time 1s   # one group, longer rounds`,
		},
	})
}

func benchFlags(fs *flag.FlagSet) func(*env, []string) error {
	var (
		filter, plotPath string
		asJSON           bool
		target           time.Duration
		cpu              int
	)
	fs.StringVar(&filter, "filter", "", "run only the cases whose GROUP/NAME matches this regular expression")
	fs.BoolVar(&asJSON, "json", false, "print the results as JSON instead of tables")
	fs.StringVar(&plotPath, "plot", "", "also draw ns/row bar charts into this .png or .svg file")
	fs.DurationVar(&target, "time", bench.DefaultTarget, "how long to time each case")
	fs.IntVar(&cpu, "cpu", 0, "GOMAXPROCS while timing (default: leave it)")
	return func(e *env, args []string) error {
		if len(args) > 0 {
			return usagef("bench takes no arguments")
		}
		opts := bench.RunOptions{Target: target}
		if target <= 0 {
			return usagef("--time %v: want a positive duration", target)
		}
		if cpu < 0 {
			return usagef("--cpu %d: want at least 1", cpu)
		}
		if filter != "" {
			re, err := regexp.Compile(filter)
			if err != nil {
				return usagef("--filter: %v", err)
			}
			opts.Filter = re
		}
		format := ""
		if plotPath != "" {
			f, err := bench.PlotFormat(plotPath)
			if err != nil {
				return usagef("--plot: %v", err)
			}
			format = f
		}
		cases := bench.Select(append(bench.CastCases(), bench.RowCases()...), opts.Filter)
		if len(cases) == 0 {
			return usagef("--filter %q matches no case", filter)
		}
		if f, ok := e.stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
			opts.Progress = e.stderr
		}
		if cpu > 0 {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(cpu))
		}
		results, err := bench.Run(cases, opts)
		if err != nil {
			return err
		}
		if format != "" {
			if err := writePlotFile(e, plotPath, results, format); err != nil {
				return err
			}
		}
		if asJSON {
			return bench.WriteJSON(e.stdout, results)
		}
		return bench.WriteTable(e.stdout, results)
	}
}

// writePlotFile draws the whole image before writing the file, which a
// failed plot leaves as it was.
func writePlotFile(e *env, path string, results []bench.Result, format string) error {
	var b bytes.Buffer
	if err := bench.WritePlot(&b, results, format); err != nil {
		return err
	}
	o, err := createOutput(e, "--plot", path)
	if err != nil {
		return err
	}
	_, err = o.Write(b.Bytes())
	return o.finish(err)
}
