package sparkhash

import (
	"encoding/binary"
	"fmt"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
)

// RoundRobinPartitioner deals rows to partitions in turn, carrying its
// position across batches: the first row goes to the start partition, the
// next to start+1, and so on modulo the partition count.
//
// Spark's RoundRobinPartitioning (ShuffleExchangeExec) does not start at 0:
// each map task draws a start position from a generator seeded with its
// partition id and increments it before each row, so its first row goes to
// the partition after the drawn one; SparkRoundRobinStart (Spark 3.4 and
// later) and SparkRoundRobinStartLegacy (Spark 2.3 to 3.3) compute that
// first partition. Spark also, by default
// (spark.sql.execution.sortBeforeRepartition), sorts a task's rows by their
// UnsafeRow bytes before dealing them, so that a retried task repeats its
// assignment; this partitioner deals rows in the order given.
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

// SparkRoundRobinStart is the partition to which Spark 3.4 and later send
// the first row of map task partitionID under RoundRobinPartitioning:
// (new XORShiftRandom(partitionId).nextInt(numPartitions) + 1) mod
// numPartitions (SPARK-40660). Pass it as the start of
// NewRoundRobinPartitioner.
func SparkRoundRobinStart(partitionID, numPartitions int) (int, error) {
	if err := checkPartitions(numPartitions); err != nil {
		return 0, err
	}
	r := newXORShiftRandom(int64(partitionID))
	return (int(nextInt(r, int32(numPartitions))) + 1) % numPartitions, nil
}

// SparkRoundRobinStartLegacy is SparkRoundRobinStart for Spark 2.3 to 3.3:
// (new java.util.Random(scala.util.hashing.byteswap32(partitionId))
// .nextInt(numPartitions) + 1) mod numPartitions (SPARK-21782).
func SparkRoundRobinStartLegacy(partitionID, numPartitions int) (int, error) {
	if err := checkPartitions(numPartitions); err != nil {
		return 0, err
	}
	r := newJavaRandom(int64(byteswap32(int32(partitionID))))
	return (int(nextInt(r, int32(numPartitions))) + 1) % numPartitions, nil
}

// byteswap32 is scala.util.hashing.byteswap32.
func byteswap32(v int32) int32 {
	hc := uint32(v) * 0x9e3775cd
	hc = bits.ReverseBytes32(hc)
	return int32(hc * 0x9e3775cd)
}

// generator is the next(bits) of a java.util.Random subclass.
type generator interface{ next(nbits uint) int32 }

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

// xorShiftRandom is org.apache.spark.util.random.XORShiftRandom.
type xorShiftRandom struct{ seed uint64 }

// newXORShiftRandom seeds as XORShiftRandom.hashSeed does: the seed's 8
// big-endian bytes hashed with scala.util.hashing.MurmurHash3.bytesHash
// (standard Murmur3_x86_32) from arraySeed for the low word, then from the
// low word for the high word.
func newXORShiftRandom(seed int64) *xorShiftRandom {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(seed))
	const arraySeed = 0x3c074a61
	lo := murmur3Standard(b[:], arraySeed)
	hi := murmur3Standard(b[:], lo)
	return &xorShiftRandom{seed: uint64(hi)<<32 | uint64(lo)}
}

func (r *xorShiftRandom) next(nbits uint) int32 {
	s := r.seed
	s ^= s << 21
	s ^= s >> 35
	s ^= s << 4
	r.seed = s
	return int32(s & (1<<nbits - 1))
}

// nextInt is java.util.Random.nextInt(bound), bound > 0, over r's next.
func nextInt(r generator, bound int32) int32 {
	rv := r.next(31)
	m := bound - 1
	if bound&m == 0 {
		return int32((int64(bound) * int64(rv)) >> 31)
	}
	for u := rv; ; u = r.next(31) {
		rv = u % bound
		if u-rv+m >= 0 { // Java retries when u - r + m overflows
			return rv
		}
	}
}

// murmur3Standard is standard Murmur3_x86_32 (the tail packed into one
// little-endian word), as scala.util.hashing.MurmurHash3.bytesHash computes
// it; Spark's hash() does not use it.
func murmur3Standard(b []byte, seed uint32) uint32 {
	h1 := seed
	n := len(b)
	aligned := n &^ 3
	for i := 0; i < aligned; i += 4 {
		h1 = mixH1(h1, mixK1(binary.LittleEndian.Uint32(b[i:i+4])))
	}
	var k uint32
	switch n - aligned {
	case 3:
		k ^= uint32(b[aligned+2]) << 16
		fallthrough
	case 2:
		k ^= uint32(b[aligned+1]) << 8
		fallthrough
	case 1:
		k ^= uint32(b[aligned])
		h1 ^= mixK1(k)
	}
	return fmix(h1, uint32(n))
}
