package compactrow

import (
	"fmt"

	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/internal/columnar"
)

// Sizes and writers for single values. size and write take a non-null
// variable-width value; putFixed a non-null fixed-width one. write returns
// the position after the value; it writes into a zeroed buffer, so gaps
// (null fixed values, null elements' offset-table entries) stay zero.

// size is the encoded size of non-null variable-width value i.
func (s *source) size(i int) int {
	switch s.node.Kind {
	case columnar.KindString, columnar.KindBinary:
		return 4 + int(s.Offsets[i+1]-s.Offsets[i])
	case columnar.KindList:
		start, n := s.span(i)
		return s.children[0].arraySize(start, n)
	case columnar.KindMap:
		start, n := s.span(i)
		return s.children[0].arraySize(start, n) + s.children[1].arraySize(start, n)
	}
	size := nullBytes(len(s.children)) // struct
	for _, c := range s.children {
		if c.width >= 0 {
			size += c.width
		} else if c.IsValid(i) {
			size += c.size(i)
		}
	}
	return size
}

// arraySize is the encoded size of an array of elements s[start:start+n].
func (s *source) arraySize(start, n int) int {
	size := 4 + nullBytes(n)
	switch {
	case s.width >= 0:
		return size + n*s.width
	case s.node.Kind == columnar.KindString || s.node.Kind == columnar.KindBinary:
		if s.Valid == nil {
			return size + 4*n + int(s.Offsets[start+n]-s.Offsets[start])
		}
		for j := start; j < start+n; j++ {
			if s.IsValid(j) {
				size += s.size(j)
			}
		}
		return size
	case n == 0:
		return size
	}
	size += 4 + 4*n // serializedSize and offset table
	if s.AllValid() {
		if s.node.Kind == columnar.KindList && s.children[0].width >= 0 {
			// Arrays of fixed-width arrays: each one's size inline.
			offs, w := s.Offsets[start:start+n+1], s.children[0].width
			for j := range n {
				m := int(offs[j+1] - offs[j])
				size += 4 + nullBytes(m) + m*w
			}
			return size
		}
		for j := start; j < start+n; j++ {
			size += s.size(j)
		}
		return size
	}
	for j := start; j < start+n; j++ {
		if s.IsValid(j) {
			size += s.size(j)
		}
	}
	return size
}

// write writes non-null variable-width value i at p.
func (s *source) write(i int, buf []byte, p int) (int, error) {
	switch s.node.Kind {
	case columnar.KindString, columnar.KindBinary:
		a, b := s.Offsets[i], s.Offsets[i+1]
		le.PutUint32(buf[p:], uint32(b-a))
		return p + 4 + copy(buf[p+4:], s.Data[a:b]), nil
	case columnar.KindList:
		start, n := s.span(i)
		return s.children[0].writeArray(start, n, buf, p)
	case columnar.KindMap:
		start, n := s.span(i)
		p, err := s.children[0].writeArray(start, n, buf, p)
		if err != nil {
			return 0, err
		}
		return s.children[1].writeArray(start, n, buf, p)
	}
	return s.writeStruct(i, buf, p)
}

func (s *source) writeStruct(i int, buf []byte, p int) (int, error) {
	flags := p
	p += nullBytes(len(s.children))
	var err error
	for k, c := range s.children {
		switch {
		case !c.IsValid(i):
			if c.notNull {
				return 0, c.nullError()
			}
			buf[flags+k>>3] |= 1 << (k & 7)
			if c.width > 0 {
				p += c.width
			}
		case c.width >= 0:
			if err = c.putFixed(i, buf[p:]); err != nil {
				return 0, err
			}
			p += c.width
		default:
			if p, err = c.write(i, buf, p); err != nil {
				return 0, err
			}
		}
	}
	return p, nil
}

// writeArray writes the array of elements s[start:start+n] at p.
func (s *source) writeArray(start, n int, buf []byte, p int) (int, error) {
	le.PutUint32(buf[p:], uint32(n))
	flags := p + 4
	p = flags + nullBytes(n)
	var err error
	switch {
	case s.width > 0 && s.sameBytes():
		// Arrow's values are the CompactRow slots: one copy, then the
		// null slots are zeroed back (Velox writes them as zero).
		w := s.width
		if s.node.Kind == columnar.KindDecimal {
			for j := range n {
				if s.IsValid(start+j) && !s.decimal.LongOK(int64(le.Uint64(s.Values[16*(start+j)+8:])), le.Uint64(s.Values[16*(start+j):])) {
					return 0, s.precisionError(start + j)
				}
			}
		}
		copy(buf[p:p+n*w], s.Values[start*w:])
		if s.Valid != nil {
			for j := range n {
				if !s.IsValid(start + j) {
					if s.notNull {
						return 0, s.nullError()
					}
					buf[flags+j>>3] |= 1 << (j & 7)
					clear(buf[p+j*w : p+j*w+w])
				}
			}
		}
		return p + n*w, nil
	case s.width >= 0:
		for j := range n {
			if !s.IsValid(start + j) {
				if s.notNull {
					return 0, s.nullError()
				}
				buf[flags+j>>3] |= 1 << (j & 7)
			} else if err = s.putFixed(start+j, buf[p+j*s.width:]); err != nil {
				return 0, err
			}
		}
		return p + n*s.width, nil
	case (s.node.Kind == columnar.KindString || s.node.Kind == columnar.KindBinary) && s.AllValid():
		offs, vals := s.Offsets[start:start+n+1], s.Data
		for j := range n {
			a, b := offs[j], offs[j+1]
			le.PutUint32(buf[p:], uint32(b-a))
			p += 4 + copy(buf[p+4:], vals[a:b])
		}
		return p, nil
	case s.node.Kind == columnar.KindString || s.node.Kind == columnar.KindBinary:
		for j := range n {
			if !s.IsValid(start + j) {
				if s.notNull {
					return 0, s.nullError()
				}
				buf[flags+j>>3] |= 1 << (j & 7)
			} else {
				p, _ = s.write(start+j, buf, p)
			}
		}
		return p, nil
	case n == 0:
		return p, nil
	}
	table := p + 4
	cur := table + 4*n
	if kid := s.inlineKid(); kid != nil && s.AllValid() {
		// Arrays of null-free arrays of plain values: each inner array is
		// its count, zero null flags and one copy.
		offs, w, vals := s.Offsets[start:start+n+1], kid.width, kid.Values
		for j := range n {
			le.PutUint32(buf[table+4*j:], uint32(cur-table))
			a, b := int(offs[j]), int(offs[j+1])
			le.PutUint32(buf[cur:], uint32(b-a))
			cur += 4 + nullBytes(b-a)
			cur += copy(buf[cur:cur+(b-a)*w], vals[a*w:b*w])
		}
		le.PutUint32(buf[p:], uint32(cur-table))
		return cur, nil
	}
	if s.AllValid() {
		for j := range n {
			le.PutUint32(buf[table+4*j:], uint32(cur-table))
			if cur, err = s.write(start+j, buf, cur); err != nil {
				return 0, err
			}
		}
		le.PutUint32(buf[p:], uint32(cur-table))
		return cur, nil
	}
	for j := range n {
		if !s.IsValid(start + j) {
			if s.notNull {
				return 0, s.nullError()
			}
			buf[flags+j>>3] |= 1 << (j & 7) // its offset entry stays 0, as Velox leaves it
			continue
		}
		le.PutUint32(buf[table+4*j:], uint32(cur-table))
		if cur, err = s.write(start+j, buf, cur); err != nil {
			return 0, err
		}
	}
	le.PutUint32(buf[p:], uint32(cur-table)) // serializedSize excludes itself
	return cur, nil
}

// inlineKid is the element source of a list whose elements are null-free
// fixed-width values stored as their Arrow bytes (and need no check), nil
// for any other source.
func (s *source) inlineKid() *source {
	if s.node.Kind != columnar.KindList {
		return nil
	}
	k := s.children[0]
	if k.width <= 0 || !k.sameBytes() || k.node.Kind == columnar.KindDecimal || !k.AllValid() {
		return nil
	}
	return k
}

// putFixed writes non-null fixed-width value i at the start of dst.
func (s *source) putFixed(i int, dst []byte) error {
	switch s.node.Kind {
	case columnar.KindBool:
		if s.Bool(i) {
			dst[0] = 1
		}
	case columnar.KindInt8:
		dst[0] = s.Values[i]
	case columnar.KindInt16:
		copy(dst[:2], s.Values[2*i:])
	case columnar.KindInt32, columnar.KindFloat32, columnar.KindDate32:
		copy(dst[:4], s.Values[4*i:])
	case columnar.KindInt64, columnar.KindFloat64, columnar.KindTimestamp:
		copy(dst[:8], s.Values[8*i:])
	case columnar.KindDecimal:
		lo, hi := le.Uint64(s.Values[16*i:]), le.Uint64(s.Values[16*i+8:])
		if s.width == 16 {
			if !s.decimal.LongOK(int64(hi), lo) {
				return s.precisionError(i)
			}
			copy(dst[:16], s.Values[16*i:])
			return nil
		}
		if hi != uint64(int64(lo)>>63) {
			return &rowbridge.EncodeError{Field: s.node.Path,
				Err: fmt.Errorf("%w: decimal(%d,%d) unscaled value does not fit in 64 bits", rowbridge.ErrValue, s.node.Precision, s.node.Scale)}
		}
		if !s.decimal.ShortOK(int64(lo)) {
			return s.precisionError(i)
		}
		le.PutUint64(dst, lo)
	}
	return nil
}

// precisionError reports decimal j with more digits
// than its precision allows.
func (s *source) precisionError(j int) error {
	v := columnar.Int128String(int64(le.Uint64(s.Values[16*j+8:])), le.Uint64(s.Values[16*j:]))
	return &rowbridge.EncodeError{Field: s.node.Path,
		Err: fmt.Errorf("%w: decimal(%d,%d) unscaled value %s exceeds the precision", rowbridge.ErrValue, s.node.Precision, s.node.Scale, v)}
}

// sameBytes reports whether the Arrow value buffer holds exactly the
// CompactRow bytes of each value (not so for booleans, which Arrow packs
// into bits, or short decimals, which Arrow widens to 16 bytes).
func (s *source) sameBytes() bool {
	switch s.node.Kind {
	case columnar.KindBool, columnar.KindNull:
		return false
	case columnar.KindDecimal:
		return s.width == 16
	}
	return true
}
