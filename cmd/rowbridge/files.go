package main

import (
	"bufio"
	"errors"
	"io"
	"os"

	"golang.org/x/term"
)

// openInput opens the single optional input argument; none or "-" is stdin.
func openInput(e *env, args []string) (io.Reader, func(), error) {
	switch {
	case len(args) > 1:
		return nil, nil, usagef("too many arguments: %q (want at most one input file)", args)
	case len(args) == 0 || args[0] == "-":
		return e.stdin, func() {}, nil
	}
	f, err := os.Open(args[0])
	if err != nil {
		return nil, nil, err
	}
	return f, func() { f.Close() }, nil
}

// convert runs one conversion of decode or encode: run reads the input
// argument (counted by the progress bar, when there is one) and writes the
// output at path, which is removed again if run fails.
func convert(e *env, verb string, args []string, path string, noProgress bool, run func(in io.Reader, out io.Writer, prog *progress) error) error {
	in, closeIn, err := openInput(e, args)
	if err != nil {
		return err
	}
	defer closeIn()
	prog, in := startProgress(e, verb, in, noProgress)
	defer prog.done()
	o, err := createOutput(e, path)
	if err != nil {
		return err
	}
	return o.finish(run(in, o, prog))
}

// output is a buffered destination: stdout, or a file that is removed
// again if the command fails.
type output struct {
	*bufio.Writer
	file *os.File
}

func createOutput(e *env, path string) (*output, error) {
	if path == "" || path == "-" {
		return &output{Writer: bufio.NewWriterSize(e.stdout, 64<<10)}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	return &output{Writer: bufio.NewWriterSize(f, 64<<10), file: f}, nil
}

// finish flushes and closes the output; after a failure (err != nil) a
// partly written file is removed, while stdout still gets everything
// converted before the failure (the rows of a JSON lines stream up to the
// bad one, say), as a pipe reader would expect. It returns the first error.
func (o *output) finish(err error) error {
	if err == nil {
		err = o.Flush()
	} else if o.file == nil {
		o.Flush()
	}
	if o.file != nil {
		if cerr := o.file.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			err = errors.Join(err, removeQuiet(o.file.Name()))
		}
	}
	return err
}

func removeQuiet(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

// refuseTerminal stops binary output from going to a terminal, where it
// would only garble the screen.
func refuseTerminal(e *env, path string) error {
	if path != "" && path != "-" {
		return nil
	}
	if f, ok := e.stdout.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return usagef("refusing to write binary data to a terminal; use -o FILE or redirect stdout")
	}
	return nil
}
