// Command corescale measures how much a second core speeds up work of
// three kinds on this machine, so that a parallel speed-up measured here
// (scripts/bench-shuffle's --workers 2) can be read against what the
// hardware gives:
//
//   - compute: a multiply-xorshift chain in registers;
//   - L2, L3, memory: copying between two buffers that fit a core's L2
//     cache, that fit the L3 cache but not L2, and that fit neither.
//
// Each runs the same total work on one goroutine, then split over two, in
// one process, and prints the wall times and the speed-up:
//
//	corescale [-rounds 3] [-work 1] [-schema S DIR...]
//
// Given a schema and the folders of an lz4 shuffle of UnsafeRows, it also
// times that shuffle's own work held in memory (see shuffle.go): the
// speed-up the machine gives rowbridge's decompression and decoding, apart
// from file reading, ordering and output.
//
// On a machine whose two cores share their path to the L3 cache and memory
// (two hardware threads of one core, or a VM's two vCPUs placed so) the
// copies barely speed up while the chain nearly doubles.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"slices"
	"sync"
	"time"
)

var sink uint64 // what the work computes, kept so the compiler cannot drop it

func chain(n int) uint64 {
	x := uint64(1)
	for range n {
		x = x*6364136223846793005 + 1442695040888963407
		x ^= x >> 29
	}
	return x
}

// copies copies a to b n times.
func copies(a, b []byte, n int) uint64 {
	var s uint64
	for i := range n {
		copy(b, a)
		s += uint64(b[i%len(b)])
	}
	return s
}

type kind struct {
	name string
	size int // bytes per buffer; 0 for the chain
}

// run does work units of k on g goroutines and returns the wall time.
func run(k kind, g int, work float64) time.Duration {
	const chainSteps = 300_000_000
	const copyBytes = 24 << 30 // bytes copied in all
	bufs := make([][2][]byte, g)
	for i := range bufs {
		if k.size > 0 {
			bufs[i] = [2][]byte{make([]byte, k.size), make([]byte, k.size)}
			for j := range bufs[i][0] {
				bufs[i][0][j] = byte(j)
			}
			copy(bufs[i][1], bufs[i][0]) // fault both in before the clock starts
		}
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	start := time.Now()
	for i := range g {
		wg.Go(func() {
			var s uint64
			if k.size == 0 {
				s = chain(int(work * chainSteps / float64(g)))
			} else {
				s = copies(bufs[i][0], bufs[i][1], int(work*copyBytes/float64(k.size)/float64(g)))
			}
			mu.Lock()
			sink += s
			mu.Unlock()
		})
	}
	wg.Wait()
	return time.Since(start)
}

func main() {
	rounds := flag.Int("rounds", 3, "rounds of each measurement (the fastest is kept)")
	work := flag.Float64("work", 1, "work per measurement (1: about a second on one core)")
	schema := flag.String("schema", "", "with DIR arguments: the rows' schema (Spark DDL), to time that shuffle's work in memory too")
	flag.Parse()
	if *rounds < 1 || *work <= 0 {
		fmt.Fprintln(os.Stderr, "corescale: -rounds and -work must be positive")
		os.Exit(2)
	}
	kinds := []kind{{"compute", 0}, {"L2 (2 x 256 KiB)", 256 << 10}, {"L3 (2 x 4 MiB)", 4 << 20}, {"memory (2 x 32 MiB)", 32 << 20}}
	fmt.Println("| work | 1 goroutine ms | 2 goroutines ms | speed-up |")
	fmt.Println("| --- | ---: | ---: | ---: |")
	for _, k := range kinds {
		var one, two []time.Duration
		for range *rounds {
			one = append(one, run(k, 1, *work))
			two = append(two, run(k, 2, *work))
		}
		a, b := slices.Min(one), slices.Min(two)
		fmt.Printf("| %s | %.1f | %.1f | %.2fx |\n", k.name, ms(a), ms(b), float64(a)/float64(b))
	}
	runtime.KeepAlive(sink)
	if *schema == "" {
		return
	}
	w, err := loadShuffle(*schema, flag.Args())
	if err != nil {
		fmt.Fprintln(os.Stderr, "corescale:", err)
		os.Exit(1)
	}
	for _, kind := range []shuffleKind{lz4Only, decodeMem, readDecode} {
		var one, two []time.Duration
		for range *rounds {
			for _, g := range []int{1, 2} {
				d, err := w.run(g, kind)
				if err != nil {
					fmt.Fprintln(os.Stderr, "corescale:", err)
					os.Exit(1)
				}
				if g == 1 {
					one = append(one, d)
				} else {
					two = append(two, d)
				}
			}
		}
		name := [...]string{
			lz4Only:    fmt.Sprintf("shuffle in memory: lz4 (%d segments)", len(w.segs)),
			decodeMem:  fmt.Sprintf("shuffle in memory: lz4 + decode (%d rows)", w.rows),
			readDecode: "shuffle: pread + lz4 + decode",
		}[kind]
		a, b := slices.Min(one), slices.Min(two)
		fmt.Printf("| %s | %.1f | %.1f | %.2fx |\n", name, ms(a), ms(b), float64(a)/float64(b))
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1e3 }
