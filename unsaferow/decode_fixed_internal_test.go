package unsaferow

import (
	"encoding/binary"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/internal/columnar"
	"github.com/stretchr/testify/require"
)

// slots writes every value, and when there are nulls every validity byte,
// into dirty memory:
// nulls (a set null bit, or an absent struct) are zero values and clear
// bits, valid entries are their slot's value and set bits, bits past the
// last entry are clear, and the count of nulls is returned.
func TestSlotsWritesValuesAndValidityBits(t *testing.T) {
	for _, n := range []int{0, 1, 7, 8, 9, 16, 21} {
		rows := make([]columnar.RowRef, n)
		spans := make([]span, n)
		wantBits := make([]byte, (n+7)/8)
		wantNulls := 0
		for k := range n {
			r := make([]byte, 16) // null bitset word, one 8-byte slot
			binary.LittleEndian.PutUint64(r[8:], uint64(1000+k))
			rows[k] = columnar.RefOf(r)
			spans[k] = span{row: int32(k), start: 0, end: 16}
			if n == 21 && k < 13 {
				wantBits[k>>3] |= 1 << (k & 7) // the first null late, mid-byte
				continue
			}
			switch k % 3 {
			case 1:
				r[0] = 1 // field 0 null
				wantNulls++
			case 2:
				if k%2 == 0 {
					spans[k] = nullSpan // its struct is absent
					wantNulls++
					continue
				}
				wantBits[k>>3] |= 1 << (k & 7)
			default:
				wantBits[k>>3] |= 1 << (k & 7)
			}
		}
		out := make([]uint64, n)
		bits := make([]byte, (n+7)/8)
		for i := range out {
			out[i] = 0xdeadbeef
		}
		for i := range bits {
			bits[i] = 0xa5
		}
		nulls := slots(rows, spans, fieldSlot{slot: 8, bitByte: 0, bitMask: 1}, out, bits)
		require.Equal(t, wantNulls, nulls, "n=%d", n)
		if wantNulls > 0 {
			require.Equal(t, wantBits, bits, "n=%d", n)
		}
		for k := range n {
			if wantBits[k>>3]&(1<<(k&7)) != 0 {
				require.Equal(t, uint64(1000+k), out[k], "n=%d entry %d", n, k)
			} else {
				require.Zero(t, out[k], "n=%d null entry %d", n, k)
			}
		}
	}
}

// A character split across two values of a column ("\xc3" then "\xa9",
// whose concatenation is "é") is invalid UTF-8 though the column's bytes
// as a whole are UTF-8: the one-pass check must still refuse it, in the
// slot path and the general path (a nested struct's field).
func TestDecodeRefusesCharacterSplitAcrossValues(t *testing.T) {
	for _, nested := range []bool{false, true} {
		bin, str := arrow.BinaryTypes.Binary, arrow.BinaryTypes.String
		schemaOf := func(dt arrow.DataType) *arrow.Schema {
			if nested {
				dt = arrow.StructOf(arrow.Field{Name: "s", Type: dt, Nullable: true})
			}
			return arrow.NewSchema([]arrow.Field{{Name: "a", Type: dt, Nullable: true}}, nil)
		}
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		b := array.NewBinaryBuilder(mem, bin)
		b.AppendValues([][]byte{[]byte("x\xc3"), []byte("\xa9y")}, nil)
		col := b.NewArray()
		b.Release()
		if nested {
			d := array.NewData(arrow.StructOf(arrow.Field{Name: "s", Type: bin, Nullable: true}), 2, []*memory.Buffer{nil}, []arrow.ArrayData{col.Data()}, 0, 0)
			s := array.NewStructData(d)
			d.Release()
			col.Release()
			col = s
		}
		rec := array.NewRecordBatch(schemaOf(bin), []arrow.Array{col}, 2)
		col.Release()
		enc, err := NewEncoder(schemaOf(bin))
		require.NoError(t, err)
		rows, err := enc.Encode(rec)
		require.NoError(t, err)
		rec.Release()
		dec, err := NewDecoder(schemaOf(str), WithAllocator(mem))
		require.NoError(t, err)
		_, err = dec.Decode(rows.Slices())
		require.ErrorIs(t, err, rowbridge.ErrUTF8, "nested=%v", nested)
		mem.AssertSize(t, 0)
	}
}
