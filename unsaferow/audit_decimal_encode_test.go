package unsaferow

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/rowbridge/rowbridge"
)

// TestAuditTopLevelDecimalsMatchNestedStruct: top-level decimal columns
// have their own size and write loops (writeDecimalColumn); a struct's
// decimal fields go through the general field writer. A nested struct
// has a top-level row's layout, so the rows of decimal columns must be
// byte for byte the structs of a column of structs of those columns, in
// both flavours, with nulls, at every precision class, from a sliced
// batch; and a value past its precision fails at the same row.
func TestAuditTopLevelDecimalsMatchNestedStruct(t *testing.T) {
	mem := checkedMem(t)
	r := rand.New(rand.NewPCG(7, 8))
	precisions := []int32{1, 5, 18, 19, 30, 38}
	fields := make([]arrow.Field, 0, len(precisions)+1)
	for i, p := range precisions {
		fields = append(fields, arrow.Field{Name: string(rune('a' + i)), Type: &arrow.Decimal128Type{Precision: p, Scale: p / 3}, Nullable: true})
	}
	fields = append(fields, arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int64, Nullable: true})
	const n = 300
	value := func(p int32) decimal128.Num {
		m := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(p)), nil)
		m.Sub(m, big.NewInt(1)) // 10^p - 1, the largest magnitude
		var v *big.Int
		switch r.IntN(6) {
		case 0:
			v = new(big.Int).Set(m)
		case 1:
			v = new(big.Int).Neg(m)
		case 2:
			v = big.NewInt(r.Int64N(3) - 1)
		default:
			v = new(big.Int).Rsh(m, uint(r.IntN(m.BitLen()+1)))
			v.Add(v, big.NewInt(r.Int64N(1000)))
			if v.Cmp(m) > 0 {
				v.Set(m)
			}
			if r.IntN(2) == 0 {
				v.Neg(v)
			}
		}
		return num128(v)
	}
	build := func(over int) (arrow.RecordBatch, arrow.RecordBatch) {
		cols := make([]arrow.Array, len(fields))
		for c, f := range fields {
			if f.Type.ID() == arrow.INT64 {
				b := array.NewInt64Builder(mem)
				for i := range n {
					b.AppendValues([]int64{int64(i)}, []bool{i%5 != 1})
				}
				cols[c] = b.NewArray()
				b.Release()
				continue
			}
			dt := f.Type.(*arrow.Decimal128Type)
			b := array.NewDecimal128Builder(mem, dt)
			for i := range n {
				v := value(dt.Precision)
				if i == over && c == len(precisions)-2 { // one past precision 30
					v = num128(new(big.Int).Exp(big.NewInt(10), big.NewInt(30), nil))
				}
				b.AppendValues([]decimal128.Num{v}, []bool{(i+c)%4 != 0 || i == over})
			}
			cols[c] = b.NewArray()
			b.Release()
		}
		top := array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, n)
		st, err := array.NewStructArrayWithFields(cols, fields)
		if err != nil {
			t.Fatal(err)
		}
		nested := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "s", Type: st.DataType(), Nullable: true}}, nil), []arrow.Array{st}, n)
		st.Release()
		for _, c := range cols {
			c.Release()
		}
		return top, nested
	}
	for _, fl := range []Flavor{Spark, Velox} {
		for _, over := range []int{-1, 250} {
			top, nested := build(over)
			ts, ns := top.NewSlice(3, n), nested.NewSlice(3, n)
			top.Release()
			nested.Release()
			te, err := NewEncoder(ts.Schema(), WithFlavor(fl))
			if err != nil {
				t.Fatal(err)
			}
			ne, err := NewEncoder(ns.Schema(), WithFlavor(fl))
			if err != nil {
				t.Fatal(err)
			}
			trows, terr := te.Encode(ts)
			nrows, nerr := ne.Encode(ns)
			ts.Release()
			ns.Release()
			if over >= 0 {
				te, ne := asEncodeError(t, terr), asEncodeError(t, nerr)
				if te.Row != over-3 || ne.Row != over-3 {
					t.Fatalf("%v: a value past precision at row %d fails at rows %d (top) and %d (nested)", fl, over-3, te.Row, ne.Row)
				}
				continue
			}
			if terr != nil || nerr != nil {
				t.Fatalf("%v: %v / %v", fl, terr, nerr)
			}
			for i := range trows.Len() {
				row, outer := trows.Row(i), nrows.Row(i)
				w := binary.LittleEndian.Uint64(outer[8:])
				off, size := w>>32, w&0xffffffff
				if got := outer[off : off+size]; !bytes.Equal(got, row) {
					t.Fatalf("%v row %d: top-level row\n%x\nnested struct\n%x", fl, i, row, got)
				}
			}
		}
	}
}

// num128 is v (which fits 128 bits) as a decimal128.Num; arrow-go's
// FromBigInt takes big.Word to be 64 bits, wrong on 386.
func num128(v *big.Int) decimal128.Num {
	lo, hi := int128Halves(v)
	return decimal128.New(hi, lo)
}

// asEncodeError is err as a *rowbridge.EncodeError, or the test fails.
func asEncodeError(t *testing.T, err error) *rowbridge.EncodeError {
	t.Helper()
	var ee *rowbridge.EncodeError
	if !errors.As(err, &ee) {
		t.Fatalf("error %v is not a *rowbridge.EncodeError", err)
	}
	return ee
}
