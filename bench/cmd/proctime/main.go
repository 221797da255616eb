// Command proctime runs a command and reports its wall time, CPU time and
// peak resident memory, for scripts/bench-shuffle:
//
//	proctime [-o FILE] CMD [ARG...]
//
// The command's standard streams are proctime's. When it exits, proctime
// writes one line (to FILE, or standard error) of
//
//	wall_ns=N user_ns=N sys_ns=N maxrss_kb=N exit=N
//
// where wall time runs from just before the process starts to just after
// it is reaped, the CPU times and maxrss are the kernel's rusage of the
// child (getrusage's ru_maxrss: the largest resident set of the process
// or of a descendant it waited for; -1 off Linux), and exits with the
// command's status (128 when a signal ended it).
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"time"
)

func main() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("proctime", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "write the figures to this file instead of standard error")
	fs.Usage = func() { fmt.Fprintln(stderr, "usage: proctime [-o FILE] CMD [ARG...]") }
	if err := fs.Parse(args); err != nil || fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	cmd := exec.Command(fs.Arg(0), fs.Args()[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, stdout, stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	ps := cmd.ProcessState
	if ps == nil {
		fmt.Fprintln(stderr, "proctime:", err)
		return 127
	}
	code := ps.ExitCode()
	line := fmt.Sprintf("wall_ns=%d user_ns=%d sys_ns=%d maxrss_kb=%d exit=%d\n",
		wall.Nanoseconds(), ps.UserTime().Nanoseconds(), ps.SystemTime().Nanoseconds(), maxRSSKiB(ps), code)
	if *out == "" {
		io.WriteString(stderr, line)
	} else if err := os.WriteFile(*out, []byte(line), 0o644); err != nil {
		fmt.Fprintln(stderr, "proctime:", err)
		return 1
	}
	if code < 0 {
		return 128
	}
	return code
}
