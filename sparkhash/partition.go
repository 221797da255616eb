package sparkhash

import (
	"fmt"
	"math"

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
		if where, bad, reason := typeProblem(f.Type); reason != "" {
			return &TypeError{Path: fmt.Sprintf("key column %d (%q)", k, f.Name) + where, Type: bad, Reason: reason}
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

func resize(dst []int32, n int) []int32 {
	if cap(dst) >= n {
		return dst[:n]
	}
	return make([]int32, n)
}
