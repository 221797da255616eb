package sparkhash

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
)

// Partitioner assigns each row of a batch to a partition in
// [0, NumPartitions()).
type Partitioner interface {
	// Partitions returns the partition id of every row of batch, reusing
	// dst's storage when it is large enough (pass nil to allocate).
	Partitions(batch arrow.RecordBatch, dst []int32) ([]int32, error)
	NumPartitions() int
}

// NewPartitioner returns Spark's partitioner for a shuffle on keys (column
// indexes): HashPartitioning when there are keys, RoundRobinPartitioning
// starting at partition 0 when there are none.
func NewPartitioner(numPartitions int, keys []int) (Partitioner, error) {
	if len(keys) == 0 {
		return NewRoundRobinPartitioner(numPartitions, 0)
	}
	return NewHashPartitioner(numPartitions, keys)
}

// maxPartitions: partition ids are Java ints (int32 here).
const maxPartitions = math.MaxInt32

func checkPartitions(n int) error {
	if n < 1 || n > maxPartitions {
		return fmt.Errorf("sparkhash: number of partitions %d is outside [1, %d]: %w", n, maxPartitions, arrow.ErrInvalid)
	}
	return nil
}

// HashPartitioner is Spark's HashPartitioning: a row goes to partition
// pmod(hash(keys...), numPartitions), hash being Spark's Murmur3 hash with
// seed 42 over the key columns in order.
type HashPartitioner struct {
	n    int
	keys []int
	cols []arrow.Array // scratch, reused across batches
}

// NewHashPartitioner partitions on the columns at indexes keys (at least
// one, repeats allowed, as in Spark) into numPartitions partitions.
func NewHashPartitioner(numPartitions int, keys []int) (*HashPartitioner, error) {
	if err := checkPartitions(numPartitions); err != nil {
		return nil, err
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("sparkhash: hash partitioning needs at least one key column (use round robin without keys): %w", arrow.ErrInvalid)
	}
	for _, k := range keys {
		if k < 0 {
			return nil, fmt.Errorf("sparkhash: key column index %d is negative: %w", k, arrow.ErrInvalid)
		}
	}
	return &HashPartitioner{n: numPartitions, keys: append([]int(nil), keys...), cols: make([]arrow.Array, len(keys))}, nil
}

// NumPartitions returns the partition count.
func (p *HashPartitioner) NumPartitions() int { return p.n }

// Keys returns the key column indexes.
func (p *HashPartitioner) Keys() []int { return append([]int(nil), p.keys...) }

// CheckSchema reports whether every key exists in schema and has a type
// Spark can hash; the error names the column. Partitions checks the same,
// so calling this first only moves the error ahead of any work.
func (p *HashPartitioner) CheckSchema(schema *arrow.Schema) error {
	for _, k := range p.keys {
		if k >= schema.NumFields() {
			return fmt.Errorf("sparkhash: key column index %d is out of range: the schema has %d columns: %w", k, schema.NumFields(), arrow.ErrInvalid)
		}
		f := schema.Field(k)
		if err := Check(fmt.Sprintf("key column %d (%q)", k, f.Name), f.Type); err != nil {
			return err
		}
	}
	return nil
}

// Partitions returns pmod(hash(keys), numPartitions) for every row of batch.
// It is not safe for concurrent use (it keeps scratch space).
func (p *HashPartitioner) Partitions(batch arrow.RecordBatch, dst []int32) ([]int32, error) {
	if err := p.CheckSchema(batch.Schema()); err != nil {
		return nil, err
	}
	dst = resize(dst, int(batch.NumRows()))
	for i, k := range p.keys {
		p.cols[i] = batch.Column(k)
	}
	err := HashInto(dst, p.cols, Seed)
	clear(p.cols)
	if err != nil {
		return nil, err
	}
	Pmod(dst, p.n)
	return dst, nil
}

// Pmod replaces each hash in h by Spark's pmod(hash, n): the non-negative
// remainder, in [0, n).
func Pmod(h []int32, n int) {
	if n&(n-1) == 0 { // power of two: the remainder is the low bits
		m := int32(n - 1)
		for i, x := range h {
			h[i] = x & m
		}
		return
	}
	d := int32(n)
	for i, x := range h {
		r := x % d
		if r < 0 {
			r += d
		}
		h[i] = r
	}
}

// RoundRobinPartitioner deals rows to partitions in turn, carrying its
// position across batches: the first row goes to the start partition, the
// next to start+1, and so on modulo the partition count.
//
// Spark's RoundRobinPartitioning (ShuffleExchangeExec) does not start at 0:
// each map task starts at new java.util.Random(byteswap32(partitionId))
// .nextInt(numPartitions) and increments before use, so its first row goes
// to the partition after that; SparkRoundRobinStart computes it. Spark also,
// by default (spark.sql.execution.sortBeforeRepartition), sorts a task's
// rows before dealing them, so that a retried task repeats its assignment;
// this partitioner deals rows in input order.
type RoundRobinPartitioner struct {
	n    int
	next int
}

// NewRoundRobinPartitioner deals rows over numPartitions partitions,
// the first to partition start (0 <= start < numPartitions).
func NewRoundRobinPartitioner(numPartitions, start int) (*RoundRobinPartitioner, error) {
	if err := checkPartitions(numPartitions); err != nil {
		return nil, err
	}
	if start < 0 || start >= numPartitions {
		return nil, fmt.Errorf("sparkhash: round-robin start %d is outside [0, %d): %w", start, numPartitions, arrow.ErrInvalid)
	}
	return &RoundRobinPartitioner{n: numPartitions, next: start}, nil
}

// NumPartitions returns the partition count.
func (p *RoundRobinPartitioner) NumPartitions() int { return p.n }

// Partitions deals the rows of batch, continuing where the previous batch
// ended. Not safe for concurrent use.
func (p *RoundRobinPartitioner) Partitions(batch arrow.RecordBatch, dst []int32) ([]int32, error) {
	dst = resize(dst, int(batch.NumRows()))
	next := p.next
	for i := range dst {
		dst[i] = int32(next)
		next++
		if next == p.n {
			next = 0
		}
	}
	p.next = next
	return dst, nil
}

// SparkRoundRobinStart is the partition to which Spark's
// RoundRobinPartitioning sends the first row of the map task with the given
// partition id: (new java.util.Random(scala.util.hashing.byteswap32(id))
// .nextInt(numPartitions) + 1) mod numPartitions. Pass it as the start of
// NewRoundRobinPartitioner to reproduce Spark's dealing of rows that are
// already in the order Spark deals them.
func SparkRoundRobinStart(partitionID, numPartitions int) (int, error) {
	if err := checkPartitions(numPartitions); err != nil {
		return 0, err
	}
	r := newJavaRandom(int64(byteswap32(int32(partitionID))))
	return (int(r.nextInt(int32(numPartitions))) + 1) % numPartitions, nil
}

// byteswap32 is scala.util.hashing.byteswap32.
func byteswap32(v int32) int32 {
	hc := uint32(v) * 0x9e3775cd
	hc = bits.ReverseBytes32(hc)
	return int32(hc * 0x9e3775cd)
}

// javaRandom is java.util.Random's linear congruential generator.
type javaRandom struct{ seed uint64 }

const (
	jrMult = 0x5DEECE66D
	jrMask = 1<<48 - 1
)

func newJavaRandom(seed int64) *javaRandom {
	return &javaRandom{seed: (uint64(seed) ^ jrMult) & jrMask}
}

func (r *javaRandom) next(nbits uint) int32 {
	r.seed = (r.seed*jrMult + 0xB) & jrMask
	return int32(r.seed >> (48 - nbits))
}

// nextInt is java.util.Random.nextInt(bound), bound > 0.
func (r *javaRandom) nextInt(bound int32) int32 {
	rv := r.next(31)
	m := bound - 1
	if bound&m == 0 {
		return int32((int64(bound) * int64(rv)) >> 31)
	}
	for u := rv; ; u = r.next(31) {
		rv = u % bound
		if u-rv+m >= 0 { // Java: u - r + m < 0 means overflow, retry
			return rv
		}
	}
}

func resize(dst []int32, n int) []int32 {
	if cap(dst) >= n {
		return dst[:n]
	}
	return make([]int32, n)
}
