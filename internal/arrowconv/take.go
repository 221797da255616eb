package arrowconv

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/internal/columnar"
)

// take gathers entries idx of d (an array of a row-format type) into a new
// array: entry k is d's entry idx[k], or null where idx[k] < 0. Each
// output buffer is sized first and written once; nested types gather their
// children with the index lists their offsets give.
func (c *conv) take(d arrow.ArrayData, idx []int) arrow.ArrayData {
	m := len(idx)
	dt := d.DataType()
	valid, nulls := c.takeValidity(d, idx)
	bufs := []*memory.Buffer{valid}
	var kids []arrow.ArrayData
	off := d.Offset()
	switch dt.ID() {
	case arrow.NULL:
		if valid != nil {
			valid.Release()
		}
		return array.NewData(dt, m, []*memory.Buffer{nil}, nil, m, 0)
	case arrow.BOOL:
		b := c.alloc(int(bitutil.BytesForBits(int64(m))))
		src, dst := d.Buffers()[1].Bytes(), b.Bytes()
		for k, j := range idx {
			if j >= 0 && bitutil.BitIsSet(src, off+j) {
				bitutil.SetBit(dst, k)
			}
		}
		bufs = append(bufs, b)
	case arrow.STRING, arrow.BINARY:
		offs := arrow.Int32Traits.CastFromBytes(d.Buffers()[1].Bytes())[off:]
		var data []byte
		if b := d.Buffers()[2]; b != nil {
			data = b.Bytes()
		}
		total := 0
		for _, j := range idx {
			if j >= 0 {
				total += int(offs[j+1] - offs[j])
			}
		}
		ob, db := c.alloc(4*(m+1)), c.alloc(total)
		out, dst := arrow.Int32Traits.CastFromBytes(ob.Bytes()), db.Bytes()
		pos := 0
		for k, j := range idx {
			if j >= 0 {
				pos += copy(dst[pos:], data[offs[j]:offs[j+1]])
			}
			out[k+1] = int32(pos)
		}
		bufs = append(bufs, ob, db)
	case arrow.STRUCT:
		for _, ch := range d.Children() {
			s := array.NewSliceData(ch, int64(off), int64(off+d.Len()))
			kids = append(kids, c.take(s, idx))
			s.Release()
		}
	case arrow.LIST, arrow.MAP:
		offs := arrow.Int32Traits.CastFromBytes(d.Buffers()[1].Bytes())[off:]
		total := 0
		for _, j := range idx {
			if j >= 0 {
				total += int(offs[j+1] - offs[j])
			}
		}
		ob := c.alloc(4 * (m + 1))
		out := arrow.Int32Traits.CastFromBytes(ob.Bytes())
		elems := make([]int, 0, total)
		for k, j := range idx {
			if j >= 0 {
				for e := offs[j]; e < offs[j+1]; e++ {
					elems = append(elems, int(e))
				}
			}
			out[k+1] = int32(len(elems))
		}
		bufs = append(bufs, ob)
		kids = append(kids, c.take(d.Children()[0], elems))
	default: // fixed width
		w := dt.(arrow.FixedWidthDataType).BitWidth() / 8
		b := c.alloc(m * w)
		src, dst := d.Buffers()[1].Bytes()[off*w:], b.Bytes()
		switch w {
		case 1:
			gatherFixed[uint8](src, dst, idx)
		case 2:
			gatherFixed[uint16](src, dst, idx)
		case 4:
			gatherFixed[uint32](src, dst, idx)
		case 8:
			gatherFixed[uint64](src, dst, idx)
		default:
			for k, j := range idx {
				if j >= 0 {
					copy(dst[k*w:(k+1)*w], src[j*w:(j+1)*w])
				}
			}
		}
		bufs = append(bufs, b)
	}
	return columnar.NewData(dt, m, bufs, kids, nulls)
}

func gatherFixed[T uint8 | uint16 | uint32 | uint64](src, dst []byte, idx []int) {
	s, d := arrow.GetData[T](src), arrow.GetData[T](dst)
	for k, j := range idx {
		if j >= 0 {
			d[k] = s[j]
		}
	}
}

// takeValidity is the validity of take(d, idx): valid where idx[k] >= 0 and
// d's entry idx[k] is valid; nil when every entry is.
func (c *conv) takeValidity(d arrow.ArrayData, idx []int) (*memory.Buffer, int) {
	src := validBits(d)
	if d.DataType().ID() == arrow.NULL {
		return nil, len(idx)
	}
	b := c.alloc(int(bitutil.BytesForBits(int64(len(idx)))))
	bits := b.Bytes()
	nulls := 0
	off := d.Offset()
	for k, j := range idx {
		if j >= 0 && (src == nil || bitutil.BitIsSet(src, off+j)) {
			bitutil.SetBit(bits, k)
		} else {
			nulls++
		}
	}
	if nulls == 0 {
		b.Release()
		return nil, 0
	}
	return b, nulls
}
