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
