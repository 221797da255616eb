package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"sync/atomic"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progressDelay is how long a conversion runs before its progress bar
// appears, so that quick ones leave the terminal untouched; the bar is
// redrawn at most once per progressThrottle.
const (
	progressDelay    = 500 * time.Millisecond
	progressThrottle = 100 * time.Millisecond
)

// declareProgress declares --no-progress on fs.
func declareProgress(fs *flag.FlagSet) *bool {
	return fs.Bool("no-progress", false, "never show a progress bar (it is shown on stderr only when stderr is a terminal)")
}

// startProgress returns in wrapped so that its bytes are counted, and a
// progress that shows them and the rows written on stderr. It shows
// nothing unless stderr is a terminal and off is false; then it returns a
// nil *progress, whose methods do nothing, and in itself.
func startProgress(e *env, verb string, in io.Reader, off bool) (*progress, io.Reader) {
	p := startProgressTotal(e, verb, inputSize(in), off)
	return p, p.count(in)
}

// startProgressTotal returns the progress of reading total bytes (-1 when
// unknown) through the readers that count wraps, or nil as startProgress.
func startProgressTotal(e *env, verb string, total int64, off bool) *progress {
	if off || !isTerminal(e.stderr) {
		return nil
	}
	return newProgress(e.stderr, verb, total, progressDelay, progressThrottle)
}

// count returns in wrapped so that its bytes are counted after those read
// so far (of the inputs before it); in itself for a nil *progress.
func (p *progress) count(in io.Reader) io.Reader {
	if p == nil {
		return in
	}
	base := p.bytes
	return &countingReader{r: in, onRead: func(n int64) { p.setBytes(base + n) }}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// inputSize is the size of in when it is a regular file, else -1: a pipe
// has no size known in advance.
func inputSize(in io.Reader) int64 {
	f, ok := in.(*os.File)
	if !ok {
		return -1
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return -1
	}
	if pos, err := f.Seek(0, io.SeekCurrent); err == nil {
		return fi.Size() - pos
	}
	return fi.Size()
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r      io.Reader
	n      int64
	onRead func(total int64) // after every read that returned bytes
}

func (c *countingReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	if n > 0 {
		c.n += int64(n)
		if c.onRead != nil {
			c.onRead(c.n)
		}
	}
	return n, err
}

// progress is a bar of bytes read, with the rows written so far in its
// description. The bar counts from the start, so that its rate is right,
// but draws through a gate that opens only once delay has passed.
type progress struct {
	verb            string
	total           int64 // bytes, or -1 when unknown: a spinner
	delay, throttle time.Duration
	start           time.Time
	bytes, rows     int64
	gate            *gateWriter
	bar             *progressbar.ProgressBar
	lastDescribe    time.Time
}

func newProgress(w io.Writer, verb string, total int64, delay, throttle time.Duration) *progress {
	if total == 0 {
		total = -1 // the bar needs a positive total; an empty file is a short spin
	}
	p := &progress{verb: verb, total: total, delay: delay, throttle: throttle, start: time.Now(), gate: &gateWriter{w: w}}
	p.bar = progressbar.NewOptions64(p.total,
		progressbar.OptionSetWriter(p.gate),
		progressbar.OptionSetDescription(p.description()),
		progressbar.OptionShowBytes(true),
		progressbar.OptionShowCount(),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(p.throttle),
		progressbar.OptionSpinnerType(14),
		progressbar.OptionClearOnFinish(),
	)
	return p
}

func (p *progress) setBytes(n int64) {
	if p == nil {
		return
	}
	p.bytes = n
	p.show()
	p.bar.Set64(p.barBytes())
}

// addRows counts n more rows written.
func (p *progress) addRows(n int64) {
	if p == nil {
		return
	}
	p.rows += n
	if p.show() && time.Since(p.lastDescribe) >= p.throttle {
		p.lastDescribe = time.Now()
		p.bar.Describe(p.description())
	}
}

// barBytes is what the bar shows of the bytes read. A bar at its total
// finishes and vanishes, but rows are still being written after the last
// read, so it stops one byte short until done; a file that grew while
// being read stays there too.
func (p *progress) barBytes() int64 {
	if p.total > 0 && p.bytes >= p.total {
		return p.total - 1
	}
	return p.bytes
}

func (p *progress) description() string {
	return fmt.Sprintf("%s: %d rows", p.verb, p.rows)
}

// show reports whether the bar is visible, opening its gate once delay
// has passed and drawing it then with the current rows.
func (p *progress) show() bool {
	if p.gate.open.Load() {
		return true
	}
	if time.Since(p.start) < p.delay {
		return false
	}
	p.gate.open.Store(true)
	p.lastDescribe = time.Now()
	p.bar.Describe(p.description())
	return true
}

// done erases the bar, so that what follows on stderr (an error message)
// starts on a clean line; a bar never shown writes nothing. It also stops
// the spinner's goroutine.
func (p *progress) done() {
	if p == nil {
		return
	}
	p.bar.Finish()
}

// gateWriter drops what is written to it until it is opened. The bar's
// spinner draws from its own goroutine, hence the atomic.
type gateWriter struct {
	w    io.Writer
	open atomic.Bool
}

func (g *gateWriter) Write(b []byte) (int, error) {
	if !g.open.Load() {
		return len(b), nil
	}
	return g.w.Write(b)
}
