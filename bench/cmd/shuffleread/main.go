// Command shuffleread is the library path of `rowbridge shuffle decode
// --to arrow-stream` for scripts/bench-shuffle: sparkshuffle.Open, a
// Reader of every partition of one shuffle, each batch written by arrow-go's
// IPC stream writer through a 64 KiB buffer (as the command writes), so
// the benchmark can time the library where the command is missing, and
// profile it:
//
//	shuffleread shuffle decode --schema S [--shuffle N] [--workers W] [--checksum verify|ignore]
//	    [--to arrow-stream|none] [-o OUT] [--cpuprofile FILE] [--repeat N] [--times]
//	    [--prefault MiB] DIR...
//
// It takes the command's words and flags (the words are skipped), so that
// ROWBRIDGE=shuffleread scripts/bench-shuffle runs it in place of rowbridge.
// --repeat reads the shuffle N times in one process (for profiles, and,
// with --times, which prints each read's wall time to stderr, to tell the
// first read of a process from the warm ones); --to none releases each batch
// unwritten; --prefault touches and frees that much heap before the first
// read, so the reads find memory the kernel has already faulted in.
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"time"

	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/ddl"
	"github.com/rowbridge/rowbridge/sparkshuffle"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "shuffleread:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	for len(args) > 0 && (args[0] == "shuffle" || args[0] == "decode") {
		args = args[1:]
	}
	fs := flag.NewFlagSet("shuffleread", flag.ContinueOnError)
	schema := fs.String("schema", "", "row schema (Spark DDL), required")
	shuffle := fs.Int("shuffle", 0, "shuffle id")
	workers := fs.Int("workers", 1, "decoding goroutines")
	checksum := fs.String("checksum", "verify", "verify or ignore")
	to := fs.String("to", "arrow-stream", "arrow-stream only")
	out := fs.String("o", "/dev/null", "output file")
	profile := fs.String("cpuprofile", "", "write a CPU profile here")
	repeat := fs.Int("repeat", 1, "read the shuffle this many times")
	times := fs.Bool("times", false, "print each read's wall time (ms) to stderr")
	prefault := fs.Int("prefault", 0, "touch and free this many MiB of heap before the first read")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if *to != "arrow-stream" && *to != "none" {
		return fmt.Errorf("--to %s: only arrow-stream or none", *to)
	}
	sc, err := ddl.Parse(*schema)
	if err != nil {
		return err
	}
	policy, err := sparkshuffle.ParseChecksumPolicy(*checksum)
	if err != nil {
		return err
	}
	set, err := sparkshuffle.Open(fs.Args()...)
	if err != nil {
		return err
	}
	if *profile != "" {
		f, err := os.Create(*profile)
		if err != nil {
			return err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	f, err := os.OpenFile(*out, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	if *prefault > 0 {
		faultIn(*prefault << 20)
	}
	for range *repeat {
		start := time.Now()
		r, err := set.NewReader(*shuffle, sc, sparkshuffle.WithWorkers(*workers), sparkshuffle.WithChecksum(policy))
		if err != nil {
			return err
		}
		bw := bufio.NewWriterSize(f, 64<<10)
		w := ipc.NewWriter(bw, ipc.WithSchema(sc), ipc.WithAllocator(memory.DefaultAllocator))
		for r.Next() {
			if *to == "none" {
				continue
			}
			if err := w.Write(r.RecordBatch()); err != nil {
				r.Release()
				return err
			}
		}
		r.Release()
		if err := r.Err(); err != nil {
			return err
		}
		if err := w.Close(); err != nil {
			return err
		}
		if err := bw.Flush(); err != nil {
			return err
		}
		if *times {
			fmt.Fprintf(os.Stderr, "%.1f ", float64(time.Since(start).Microseconds())/1e3)
		}
	}
	if *times {
		fmt.Fprintln(os.Stderr)
	}
	return nil
}

// faultIn touches n bytes of fresh heap, a byte a page, and lets the
// garbage collector free them: the runtime keeps the pages (returning them
// to the kernel only minutes later), so what is allocated next reuses them
// without page faults.
func faultIn(n int) {
	b := make([]byte, n)
	for i := 0; i < len(b); i += 4096 {
		b[i] = 1
	}
	runtime.KeepAlive(b)
	b = nil
	runtime.GC()
}
