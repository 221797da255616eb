package sparkhash

import (
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/rowbridge/rowbridge"
)

func batchOf(t *testing.T, cols ...arrow.Array) arrow.RecordBatch {
	t.Helper()
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		fields[i] = arrow.Field{Name: string(rune('a' + i)), Type: c.DataType(), Nullable: true}
	}
	rec := array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, int64(cols[0].Len()))
	t.Cleanup(rec.Release)
	return rec
}

func TestHashPartitionerKnown(t *testing.T) {
	mem := checkedMem(t)
	// japila HashPartitioning.md: pmod(hash(id), 200) over spark.range(5)
	p, err := NewHashPartitioner(200, []int{0})
	if err != nil {
		t.Fatal(err)
	}
	ids := fromJSON(t, mem, arrow.PrimitiveTypes.Int64, `[0, 1, 2, 3, 4]`)
	got, err := p.Partitions(batchOf(t, ids), nil)
	if err != nil {
		t.Fatal(err)
	}
	expect(t, "japila range(5) into 200", got, []int32{5, 69, 128, 107, 140})

	// japila Murmur3Hash.md shows hash(0) = 933211791, hash(null) = 42 and
	// hash(4) = -397064898; Spark's pmod of those by 42 is 15, 0 and 36.
	// (The partition ids that page prints after repartition(42) are the
	// reducers' ids after adaptive coalescing, not shuffle partition ids.)
	p, err = NewHashPartitioner(42, []int{1})
	if err != nil {
		t.Fatal(err)
	}
	other := fromJSON(t, mem, arrow.BinaryTypes.String, `["x", "y", "z"]`)
	vals := fromJSON(t, mem, arrow.PrimitiveTypes.Int32, `[0, null, 4]`)
	dst := make([]int32, 0, 16)
	got, err = p.Partitions(batchOf(t, other, vals), dst)
	if err != nil {
		t.Fatal(err)
	}
	expect(t, "japila hashes into 42", got, []int32{15, 0, 36})
	if &got[0] != &dst[:1][0] {
		t.Error("Partitions did not reuse dst's storage")
	}
}

func TestPmodNegative(t *testing.T) {
	// Spark's pmod: the non-negative remainder, also for power-of-two counts.
	for _, c := range []struct {
		h    int32
		n    int
		want int32
	}{{-1, 7, 6}, {-7, 7, 0}, {-8, 7, 6}, {-2147483648, 7, 5}, {-1, 8, 7}, {-2147483648, 8, 0}, {2147483647, 1000, 647}, {-2147483648, 1, 0}} {
		h := []int32{c.h}
		Pmod(h, c.n)
		if h[0] != c.want {
			t.Errorf("pmod(%d, %d) = %d, want %d", c.h, c.n, h[0], c.want)
		}
	}
}

func TestHashPartitionerErrors(t *testing.T) {
	mem := checkedMem(t)
	if _, err := NewHashPartitioner(0, []int{0}); !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("0 partitions: %v", err)
	}
	if _, err := NewHashPartitioner(4, nil); !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("no keys: %v", err)
	}
	if _, err := NewHashPartitioner(4, []int{-1}); !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("negative key: %v", err)
	}
	p, _ := NewHashPartitioner(4, []int{2})
	b := batchOf(t, fromJSON(t, mem, arrow.PrimitiveTypes.Int32, `[1]`))
	if _, err := p.Partitions(b, nil); !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("key out of range: %v", err)
	}
	m := fromJSON(t, mem, arrow.MapOf(arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int32), `[[{"key": 1, "value": 2}]]`)
	p, _ = NewHashPartitioner(4, []int{0})
	_, err := p.Partitions(batchOf(t, m), nil)
	var te *TypeError
	if !errors.As(err, &te) || !errors.Is(err, arrow.ErrNotImplemented) || !errors.Is(err, rowbridge.ErrUnsupportedType) {
		t.Fatalf("map key: %v", err)
	}
	if err := p.CheckSchema(b.Schema()); err != nil {
		t.Errorf("CheckSchema on an int key: %v", err)
	}
}

func TestNewPartitionerPicksSparks(t *testing.T) {
	if p, _ := NewPartitioner(3, nil); p == nil {
		t.Fatal("no partitioner")
	} else if _, ok := p.(*RoundRobinPartitioner); !ok {
		t.Errorf("no keys gave %T", p)
	}
	if p, _ := NewPartitioner(3, []int{0}); p == nil {
		t.Fatal("no partitioner")
	} else if _, ok := p.(*HashPartitioner); !ok {
		t.Errorf("keys gave %T", p)
	}
}

func TestRoundRobinAcrossBatches(t *testing.T) {
	mem := checkedMem(t)
	p, err := NewRoundRobinPartitioner(3, 0)
	if err != nil {
		t.Fatal(err)
	}
	b4 := batchOf(t, fromJSON(t, mem, arrow.Null, `[null, null, null, null]`))
	b2 := batchOf(t, fromJSON(t, mem, arrow.Null, `[null, null]`))
	got, _ := p.Partitions(b4, nil)
	expect(t, "first batch", got, []int32{0, 1, 2, 0})
	got, _ = p.Partitions(b2, got)
	expect(t, "second batch", got, []int32{1, 2})
	p, _ = NewRoundRobinPartitioner(5, 3)
	got, _ = p.Partitions(b4, nil)
	expect(t, "start 3", got, []int32{3, 4, 0, 1})
	if _, err := NewRoundRobinPartitioner(3, 3); !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("start 3 of 3: %v", err)
	}
	if _, err := NewRoundRobinPartitioner(0, 0); !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("0 partitions: %v", err)
	}
}

// TestXORShiftRandomKnown checks the Spark 3.4+ start against the table in
// apache/spark#37855 (SPARK-40407), printed by spark-shell:
// new XORShiftRandom(partitionId).nextInt(numPartitions) for partition ids
// 0..200 with 2 partitions, and the first four with 3.
func TestXORShiftRandomKnown(t *testing.T) {
	const two = "001111101101110110110110000001101000101011000010100100100000110111000100010100101101011000001111100101010101000010010100101010001101010011101110111000101010100110100000010000010100111011011110000010001"
	for pid := 0; pid <= 200; pid++ {
		if got := nextInt(newXORShiftRandom(int64(pid)), 2); got != int32(two[pid]-'0') {
			t.Errorf("XORShiftRandom(%d).nextInt(2) = %d, want %c", pid, got, two[pid])
		}
		start, err := SparkRoundRobinStart(pid, 2)
		if err != nil || start != (int(two[pid]-'0')+1)%2 {
			t.Errorf("SparkRoundRobinStart(%d, 2) = %d, %v", pid, start, err)
		}
	}
	for pid, want := range []int32{2, 0, 1, 2} {
		if got := nextInt(newXORShiftRandom(int64(pid)), 3); got != want {
			t.Errorf("XORShiftRandom(%d).nextInt(3) = %d, want %d", pid, got, want)
		}
	}
}

// TestLegacyRandomKnown checks the Spark 2.3-3.3 start against
// java.util.Random as run by Java 17: new Random(byteswap32(pid))
// .nextInt(n) for pid 0..11 (byteswap32 restated in that program from
// scala.util.hashing: v * 0x9e3775cd, reverseBytes, * 0x9e3775cd). The last
// two bounds take nextInt's rejection loop.
func TestLegacyRandomKnown(t *testing.T) {
	cases := map[int32][]int32{
		1:          {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
		2:          {1, 0, 1, 1, 0, 0, 1, 0, 1, 0, 1, 0},
		3:          {0, 1, 0, 1, 1, 0, 0, 0, 0, 1, 1, 0},
		7:          {5, 1, 2, 3, 4, 4, 1, 4, 5, 0, 6, 5},
		10:         {0, 2, 1, 1, 3, 8, 9, 1, 4, 0, 3, 4},
		16:         {11, 3, 12, 13, 5, 2, 15, 0, 15, 7, 11, 4},
		200:        {160, 112, 191, 161, 133, 38, 169, 151, 14, 190, 173, 144},
		1000:       {360, 912, 991, 361, 333, 438, 369, 151, 14, 990, 773, 544},
		1500000001: {516548029, 415885912, 873176718, 188973275, 730450333, 307545438, 539393415, 18494151, 393087547, 1060678990, 987086875, 587069544},
		2147483647: {1569741360, 415885912, 1613348991, 1848036361, 730450333, 307545438, 2132400369, 18494151, 2029771014, 1060678990, 1549832773, 587069544},
	}
	for n, want := range cases {
		for pid, w := range want {
			if got := nextInt(newJavaRandom(int64(byteswap32(int32(pid)))), n); got != w {
				t.Errorf("Random(byteswap32(%d)).nextInt(%d) = %d, want %d", pid, n, got, w)
			}
			start, err := SparkRoundRobinStartLegacy(pid, int(n))
			if err != nil || start != int((int64(w)+1)%int64(n)) {
				t.Errorf("SparkRoundRobinStartLegacy(%d, %d) = %d, %v", pid, n, start, err)
			}
		}
	}
}
