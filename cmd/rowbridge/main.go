// Command rowbridge converts Spark UnsafeRow and Velox CompactRow streams
// to and from Apache Arrow, and reads and writes the shuffle files Spark
// leaves on disk.
//
//	rowbridge decode --format unsaferow --schema 'id BIGINT, name STRING' rows.bin > rows.arrow
//	rowbridge encode --format compactrow --framing velox --codec zstd rows.arrow > rows.bin
//	rowbridge shuffle ls /tmp/spark-local
//	rowbridge shuffle decode --schema 'id BIGINT, name STRING' --shuffle 0 --partitions 0-3 -o rows.arrow /tmp/spark-local
//	rowbridge shuffle write --partitions 8 --partition-by id -o /tmp/shuffle rows.arrow
//	rowbridge demo
//
// Run 'rowbridge help' for the commands and 'rowbridge CMD -h' for a
// command's flags.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sort"
	"strings"
)

// command is one subcommand. Each lives in its own file and adds itself to
// the table with register from an init function.
type command struct {
	// name is the command's words after "rowbridge": "decode", or for a
	// subcommand the group's name and its own, "shuffle ls".
	name    string
	summary string // one line for 'rowbridge help'
	usage   string // argument synopsis after the command name
	// examples, if any, are shown after the flags in 'rowbridge CMD -h',
	// one command line per line.
	examples []string
	// flags declares the command's flags on fs and returns the function
	// that runs it with the remaining positional arguments.
	flags func(fs *flag.FlagSet) func(env *env, args []string) error
	// subs, for a group of commands (shuffle), are its subcommands by
	// their last word; a group has no flags of its own.
	subs map[string]*command
	// ownSignals marks a command that handles SIGINT and SIGTERM itself
	// (serve stops gracefully); main installs removeTempsOnSignal for the
	// others only.
	ownSignals bool
}

var commands = map[string]*command{}

func register(c *command) {
	if _, dup := commands[c.name]; dup {
		panic("rowbridge: command registered twice: " + c.name)
	}
	commands[c.name] = c
}

// env is what a command may touch: the standard streams.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

// usageError marks a mistake in how the command was called (exit code 2).
// A detail, if any, is shown on the lines before the message; noHint
// leaves out the pointer to the command's help (the message says what to
// do, as for an input of the wrong kind).
type usageError struct {
	msg, detail string
	noHint      bool
}

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// Exit codes.
const (
	exitOK       = 0
	exitFailed   = 1
	exitUsage    = 2
	exitInternal = 70 // EX_SOFTWARE: a bug, reported instead of a panic trace
)

func main() {
	if !ownsSignals(os.Args[1:]) {
		removeTempsOnSignal()
	}
	code := run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stopProfile()
	os.Exit(code)
}

// ownsSignals reports whether the command line runs a command that
// handles interrupts itself.
func ownsSignals(args []string) bool {
	if len(args) == 0 {
		return false
	}
	c, ok := commands[args[0]]
	return ok && c.ownSignals
}

// run runs the command line args (without the program name) and returns
// the exit code. Errors go to stderr as one line.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(stderr, "rowbridge: internal error: %v\n", p)
			if os.Getenv("ROWBRIDGE_TRACE") != "" {
				stderr.Write(debug.Stack())
			}
			code = exitInternal
		}
	}()
	if len(args) == 0 {
		printHelp(stderr)
		return exitUsage
	}
	name := args[0]
	switch name {
	case "--version", "-version":
		name = "version" // 'rowbridge --version' is 'rowbridge version'
	case "help", "-h", "-help", "--help":
		if len(args) > 1 && !isHelpFlag(args[1]) {
			c, ok := commands[args[1]]
			if !ok {
				fmt.Fprintf(stderr, "rowbridge help: unknown command %q (run 'rowbridge help')\n", args[1])
				return exitUsage
			}
			for _, word := range args[2:] {
				if c.subs == nil || isHelpFlag(word) {
					break
				}
				sub, ok := c.subs[word]
				if !ok {
					fmt.Fprintf(stderr, "rowbridge help: unknown command %q (run 'rowbridge help %s')\n", c.name+" "+word, c.name)
					return exitUsage
				}
				c = sub
			}
			printCommandHelp(stdout, c)
			return exitOK
		}
		printHelp(stdout)
		return exitOK
	}
	c, ok := commands[name]
	if !ok {
		fmt.Fprintf(stderr, "rowbridge: unknown command %q (run 'rowbridge help')\n", name)
		return exitUsage
	}
	args = args[1:]
	for c.subs != nil {
		switch {
		case len(args) == 0:
			fmt.Fprintf(stderr, "rowbridge %s: a command is required (see 'rowbridge %s -h')\n", c.name, c.name)
			return exitUsage
		case isHelpFlag(args[0]):
			printCommandHelp(stdout, c)
			return exitOK
		}
		sub, ok := c.subs[args[0]]
		if !ok {
			fmt.Fprintf(stderr, "rowbridge %s: unknown command %q (see 'rowbridge %s -h')\n", c.name, args[0], c.name)
			return exitUsage
		}
		c, args = sub, args[1:]
	}
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	exec := c.flags(fs)
	rest, err := parseFlags(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		printCommandHelp(stdout, c)
		return exitOK
	}
	if err == nil {
		err = exec(&env{stdin: stdin, stdout: stdout, stderr: stderr}, rest)
	}
	if err == nil {
		return exitOK
	}
	msg := oneLine(err.Error())
	var ue *usageError
	if errors.As(err, &ue) || isFlagError(err) {
		if ue != nil && ue.detail != "" {
			fmt.Fprintln(stderr, ue.detail)
		}
		if ue != nil && ue.noHint {
			fmt.Fprintf(stderr, "rowbridge %s: %s\n", c.name, msg)
		} else {
			fmt.Fprintf(stderr, "rowbridge %s: %s (see 'rowbridge %s -h')\n", c.name, msg, c.name)
		}
		return exitUsage
	}
	fmt.Fprintf(stderr, "rowbridge %s: %s\n", c.name, msg)
	return exitFailed
}

// isHelpFlag reports whether arg asks for help, as in 'rowbridge help -h'.
func isHelpFlag(arg string) bool {
	switch arg {
	case "-h", "-help", "--help", "--h":
		return true
	}
	return false
}

// flagError wraps what flag.FlagSet.Parse reports.
type flagError struct{ err error }

func (e *flagError) Error() string { return e.err.Error() }
func (e *flagError) Unwrap() error { return e.err }

func isFlagError(err error) bool {
	var fe *flagError
	return errors.As(err, &fe)
}

// parseFlags parses flags wherever they appear among the positional
// arguments ("decode in.bin -o out.arrow"); "--" ends the flags.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, &flagError{err}
		}
		consumed := len(args) - fs.NArg()
		if consumed > 0 && args[consumed-1] == "--" {
			return append(rest, fs.Args()...), nil
		}
		args = fs.Args()
		if len(args) == 0 {
			return rest, nil
		}
		rest = append(rest, args[0])
		args = args[1:]
	}
}

// oneLine keeps an error message on one line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", " ")), " ")
}

func printHelp(w io.Writer) {
	fmt.Fprintln(w, "rowbridge converts Spark UnsafeRow and Velox CompactRow streams to and from Apache Arrow,")
	fmt.Fprintln(w, "and reads and writes the shuffle files Spark leaves on disk.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Usage: rowbridge COMMAND [flags] [args]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands:")
	names := commandNames()
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	// The first example of each command, as a taste.
	fmt.Fprintln(w, "\nExamples (testdata/ paths are in the source repository):")
	for _, n := range names {
		if ex := commands[n].examples; len(ex) > 0 {
			fmt.Fprintf(w, "  %s\n", ex[0])
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run 'rowbridge COMMAND -h' for a command's flags and more examples.")
}

func commandNames() []string {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// subNames lists a group's subcommands in the order of their names.
func subNames(c *command) []string {
	names := make([]string, 0, len(c.subs))
	for n := range c.subs {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func printCommandHelp(w io.Writer, c *command) {
	fmt.Fprintf(w, "Usage: %s\n\n%s\n", strings.TrimSpace("rowbridge "+c.name+" "+c.usage), c.summary)
	switch {
	case c.subs != nil:
		fmt.Fprintln(w, "\nCommands:")
		for _, n := range subNames(c) {
			fmt.Fprintf(w, "  %-8s %s\n", n, c.subs[n].summary)
		}
		fmt.Fprintf(w, "\nFlags: see 'rowbridge %s COMMAND -h'\n", c.name)
	default:
		fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
		c.flags(fs)
		if hasFlags(fs) {
			fmt.Fprintln(w, "\nFlags:")
			fs.SetOutput(w)
			fs.PrintDefaults()
		} else {
			fmt.Fprintln(w, "\nFlags: none")
		}
	}
	if len(c.examples) > 0 {
		fmt.Fprintln(w, "\nExamples:")
		for _, ex := range c.examples {
			fmt.Fprintf(w, "  %s\n", ex)
		}
	}
}

func hasFlags(fs *flag.FlagSet) bool {
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	return n > 0
}
