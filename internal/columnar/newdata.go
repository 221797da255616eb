package columnar

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// NewData builds an array of any layout from its buffers and children,
// taking over the caller's references as the constructors in data.go do
// (a nil buffer is an absent one).
func NewData(dt arrow.DataType, n int, bufs []*memory.Buffer, children []arrow.ArrayData, nulls int) arrow.ArrayData {
	return adopt(dt, n, bufs, children, nulls)
}
