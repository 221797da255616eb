package main

import (
	"errors"
	"fmt"
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
// output at path (see createOutput: a file there is replaced only if run
// succeeds).
func convert(e *env, verb string, args []string, path string, noProgress bool, run func(in io.Reader, out io.Writer, prog *progress) error) error {
	in, closeIn, err := openInput(e, args)
	if err != nil {
		return err
	}
	defer closeIn()
	prog, in := startProgress(e, verb, in, noProgress)
	defer prog.done()
	input := "-"
	if len(args) == 1 {
		input = args[0]
	}
	o, err := createOutput(e, "-o", path, input)
	if err != nil {
		return err
	}
	err = run(in, o, prog)
	if err != nil && input != "-" {
		var ue *usageError
		if !errors.As(err, &ue) {
			err = fmt.Errorf("%s: %w", input, err) // say which file the bytes came from
		}
	}
	return o.finish(err)
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
