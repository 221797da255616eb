package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"golang.org/x/term"
)

// inputSet is a command's input arguments, read one after the other as
// one stream: paths, and "-" for stdin (no arguments is stdin).
type inputSet struct {
	e    *env
	args []string
	prog *progress // counts the bytes read from every input; nil for none
}

// newInputSet checks the input arguments: stdin may be named once.
func newInputSet(e *env, args []string) (*inputSet, error) {
	if len(args) == 0 {
		args = []string{"-"}
	}
	n := 0
	for _, a := range args {
		if a == "-" {
			n++
		}
	}
	if n > 1 {
		return nil, usagef("stdin (-) is named %d times among the inputs; it can be read once", n)
	}
	return &inputSet{e: e, args: args}, nil
}

// startProgress starts the progress bar of verb over all the inputs.
func (s *inputSet) startProgress(verb string, off bool) {
	total := int64(0)
	for _, a := range s.args {
		n := int64(-1)
		if a == "-" {
			n = inputSize(s.e.stdin)
		} else if fi, err := os.Stat(a); err == nil && fi.Mode().IsRegular() {
			n = fi.Size()
		}
		if n < 0 || total < 0 {
			total = -1
		} else {
			total += n
		}
	}
	s.prog = startProgressTotal(s.e, verb, total, off)
}

// inputSource is one input, opened, its first bytes peeked and its kind
// told from them.
type inputSource struct {
	name string    // the path, or "stdin"
	in   io.Reader // as opened: an *os.File, or a countingReader around one (for random access)
	br   *bufio.Reader
	head []byte // the first sniffBytes bytes (fewer for a shorter input), still in br
	kind inputKind
	f    *os.File // the file opened, nil for stdin
}

func (s *inputSource) close() {
	if s.f != nil {
		s.f.Close()
	}
}

// open opens the input arg. A directory is refused here, for every
// command alike.
func (s *inputSet) open(arg string) (*inputSource, error) {
	src := &inputSource{name: arg}
	var r io.Reader
	if arg == "-" {
		src.name, r = "stdin", s.e.stdin
	} else {
		f, err := os.Open(arg)
		if err != nil {
			return nil, err
		}
		if fi, err := f.Stat(); err == nil && fi.IsDir() {
			f.Close()
			return nil, inputKindError(arg, kindDirectory, nil)
		}
		src.f, r = f, f
	}
	src.in = s.prog.count(r)
	src.br = bufio.NewReaderSize(src.in, 64<<10)
	head, err := src.br.Peek(sniffBytes)
	if err != nil && err != io.EOF {
		src.close()
		return nil, s.named(src.name, err)
	}
	src.head = head
	src.kind = sniffInput(head)
	return src, nil
}

// named prefixes err with the input it came from, so that a script over
// many files says which one is bad; a usage error (an input of the wrong
// kind names itself) and an error of stdin as the only input are left as
// they are.
func (s *inputSet) named(name string, err error) error {
	var ue *usageError
	if errors.As(err, &ue) || name == "stdin" && len(s.args) == 1 {
		return err
	}
	return fmt.Errorf("%s: %w", name, err)
}

// chainSource reads the inputs of an inputSet one after the other as one
// batchSource: each input is opened (by open, which refuses a kind it does
// not read) when the one before it has ended, and its schema must be the
// first input's, up to metadata. Errors name the input they came from.
type chainSource struct {
	ins    *inputSet
	open   func(*inputSource) (batchSource, error)
	next   int // the next input argument to open
	in     *inputSource
	cur    batchSource
	schema *arrow.Schema // the first input's
	first  string        // the first input's name
	// wrapped is the current batch under schema, when the input's schema
	// differs from it in metadata only.
	wrapped arrow.RecordBatch
}

// openChain opens the first input.
func openChain(ins *inputSet, open func(*inputSource) (batchSource, error)) (*chainSource, error) {
	c := &chainSource{ins: ins, open: open}
	if err := c.advance(); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// advance opens the next input.
func (c *chainSource) advance() error {
	arg := c.ins.args[c.next]
	c.next++
	in, err := c.ins.open(arg)
	if err != nil {
		return err
	}
	src, err := c.open(in)
	if err != nil {
		in.close()
		return c.ins.named(in.name, err)
	}
	c.in, c.cur = in, src
	if c.schema == nil {
		c.schema, c.first = src.Schema(), in.name
	} else if diff := fieldsDiff(c.schema, src.Schema()); diff != "" {
		return c.ins.named(in.name, fmt.Errorf("its schema differs from that of %s, the first input: %s", c.first, diff))
	}
	return nil
}

// current is the source of the input being read (the first, before any
// batch is read).
func (c *chainSource) current() batchSource { return c.cur }

func (c *chainSource) Schema() *arrow.Schema { return c.schema }

func (c *chainSource) Next() (arrow.RecordBatch, bool, error) {
	c.releaseWrapped()
	for {
		rec, ok, err := c.cur.Next()
		if err != nil {
			return nil, false, c.ins.named(c.in.name, err)
		}
		if ok {
			if rec.Schema() != c.schema && !rec.Schema().Equal(c.schema) {
				c.wrapped = array.NewRecordBatch(c.schema, rec.Columns(), rec.NumRows())
				rec = c.wrapped
			}
			return rec, true, nil
		}
		if c.next == len(c.ins.args) {
			return nil, false, nil
		}
		c.closeCurrent()
		if err := c.advance(); err != nil {
			return nil, false, err
		}
	}
}

func (c *chainSource) releaseWrapped() {
	if c.wrapped != nil {
		c.wrapped.Release()
		c.wrapped = nil
	}
}

func (c *chainSource) closeCurrent() {
	if c.cur != nil {
		c.cur.Close()
		c.cur = nil
	}
	if c.in != nil {
		c.in.close()
		c.in = nil
	}
}

func (c *chainSource) Close() {
	c.releaseWrapped()
	c.closeCurrent()
}

// fieldsDiff describes the first difference between the fields of two
// schemas in names, types and nullability (metadata aside), or returns ""
// if there is none.
func fieldsDiff(first, other *arrow.Schema) string {
	if first.NumFields() != other.NumFields() {
		return fmt.Sprintf("%d fields, not %d", other.NumFields(), first.NumFields())
	}
	if first.Endianness() != other.Endianness() {
		return fmt.Sprintf("%v endian, not %v", other.Endianness(), first.Endianness())
	}
	for i := range first.NumFields() {
		a, b := first.Field(i), other.Field(i)
		if a.Name != b.Name || a.Nullable != b.Nullable || !arrow.TypeEqual(a.Type, b.Type) {
			return fmt.Sprintf("field %d is %s, not %s", i, b, a)
		}
	}
	return ""
}

// convert runs one conversion of decode or encode: run reads the inputs
// and writes the output at path (see createOutput: a file there is
// replaced only if run succeeds, and it may not be one of the inputs).
func convert(e *env, verb string, args []string, path string, noProgress bool, run func(ins *inputSet, out io.Writer) error) error {
	ins, err := newInputSet(e, args)
	if err != nil {
		return err
	}
	o, err := createOutput(e, "-o", path, ins.args...)
	if err != nil {
		return err
	}
	ins.startProgress(verb, noProgress)
	defer ins.prog.done()
	return o.finish(run(ins, o))
}

// refuseTerminal stops binary output from going to a terminal, where it
// would only garble the screen.
func refuseTerminal(e *env, path string) error {
	if !isStdout(path) {
		return nil
	}
	if f, ok := e.stdout.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return usagef("refusing to write binary data to a terminal; use -o FILE or redirect stdout")
	}
	return nil
}
