package columnar

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/stretchr/testify/require"
)

// One limit per column, ±(10^p - 1), for short and long decimals alike.
func TestDecimalLimit(t *testing.T) {
	two := NewDecimalLimit(2)
	require.Equal(t, []bool{true, true, false, false}, []bool{two.ShortOK(99), two.ShortOK(-99), two.ShortOK(100), two.ShortOK(-100)})
	require.Equal(t, int64(99), two.ShortMax())
	require.True(t, two.LongOK(-1, ^uint64(98)), "-99")
	require.False(t, two.LongOK(-1, ^uint64(99)), "-100")

	p38 := NewDecimalLimit(38)
	m := decimal128.GetMaxValue(38)
	require.True(t, p38.LongOK(m.HighBits(), m.LowBits()))
	over := m.Add(decimal128.FromI64(1))
	require.False(t, p38.LongOK(over.HighBits(), over.LowBits()))
	neg := m.Negate()
	require.True(t, p38.LongOK(neg.HighBits(), neg.LowBits()))
	under := neg.Sub(decimal128.FromI64(1))
	require.False(t, p38.LongOK(under.HighBits(), under.LowBits()))

	off := NewDecimalLimit(0) // not a precision Arrow defines: nothing is checked
	require.True(t, off.ShortOK(1<<62))
	require.Equal(t, int64(1<<63-1), off.ShortMax())

	require.Equal(t, "-1", Int128String(-1, ^uint64(0)))
	require.Equal(t, "99999999999999999999999999999999999999", Int128String(m.HighBits(), m.LowBits()))
}

// decimal256Cases are int256 values (words least significant first) with
// a scale and their exact plain text, worked out with Python's integers.
var decimal256Cases = []struct {
	w     [4]uint64
	scale int32
	want  string
}{
	{[4]uint64{0x0, 0x0, 0x0, 0x0}, 2, "0.00"},
	{[4]uint64{0x1, 0x0, 0x0, 0x0}, 2, "0.01"},
	{[4]uint64{0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff}, 2, "-0.01"},
	{[4]uint64{0x10000000000, 0x0, 0x0, 0x0}, 2, "10995116277.76"},
	{[4]uint64{0xffffff0000000000, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff}, 2, "-10995116277.76"},
	{[4]uint64{0xc, 0x0, 0x0, 0x0}, -3, "12000"},
	{[4]uint64{0x0, 0x0, 0x0, 0x0}, -3, "0"},
	{[4]uint64{0x0, 0x1, 0x0, 0x0}, 5, "184467440737095.51616"},
	{[4]uint64{0x0, 0x0, 0x1, 0x0}, 0, "340282366920938463463374607431768211456"},
	{[4]uint64{0x7, 0x0, 0x0, 0xffffffffffffff00}, 10, "-160693804425899027554196209234116260252220299378279.2835301369"},
	{[4]uint64{0xffffffffffffffff, 0x7775a5f171950fff, 0x764b4abe8652979, 0x161bcca7119915b5}, 20, "99999999999999999999999999999999999999999999999999999999.99999999999999999999"},
	{[4]uint64{0x1, 0x888a5a0e8e6af000, 0xf89b4b54179ad686, 0xe9e43358ee66ea4a}, 76, "-0.9999999999999999999999999999999999999999999999999999999999999999999999999999"},
	{[4]uint64{0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0x7fffffffffffffff}, 0, "57896044618658097711785492504343953926634992332820282019728792003956564819967"},
	{[4]uint64{0x0, 0x0, 0x0, 0x8000000000000000}, 0, "-57896044618658097711785492504343953926634992332820282019728792003956564819968"},
}

// Decimal256 values print exactly on every GOARCH (arrow-go's ToString
// keeps only the low half of each word on 386).
func TestAppendDecimal256(t *testing.T) {
	for _, c := range decimal256Cases {
		require.Equal(t, c.want, string(AppendDecimal256([]byte("x"), c.w, c.scale))[1:], "%#x at scale %d", c.w, c.scale)
	}
}

func TestAppendPlainDecimal(t *testing.T) {
	for _, c := range []struct {
		neg    bool
		digits string
		scale  int32
		want   string
	}{
		{false, "0", 0, "0"},
		{false, "0", 3, "0.000"},
		{false, "0", -2, "0"},
		{true, "5", 1, "-0.5"},
		{true, "5", 3, "-0.005"},
		{false, "150", 2, "1.50"},
		{false, "150", 3, "0.150"},
		{false, "12", -2, "1200"},
		{true, "123456789", 4, "-12345.6789"},
	} {
		require.Equal(t, c.want, string(AppendPlainDecimal(nil, c.neg, []byte(c.digits), c.scale)), "%+v", c)
	}
}
