package compactrow

import "github.com/rowbridge/rowbridge/internal/columnar"

// columnWriter writes the values of one column for every row before moving
// to the next column, at per-row cursors. Fields of top-level structs are
// columns of their own (their value i is row i's), so a struct of fixed
// fields is written in tight per-field loops too; lists and maps are
// written value by value.
type columnWriter struct {
	data   []byte
	cur    []int   // per row: where its next field goes
	starts [][]int // per struct nesting level: each row's struct start, -1 when absent
	depth  int
}

func (w *columnWriter) reset(data []byte, n int) {
	w.data = data
	w.cur = grow(w.cur, n)
	w.depth = 0
}

func grow(s []int, n int) []int {
	if cap(s) < n {
		return make([]int, n)
	}
	return s[:n]
}

// column writes field f of the struct (or row) whose null flags start at
// flagAt[r] in row r; flagAt[r] < 0 means that struct is null in row r and
// has no bytes. all says no entry of flagAt is negative.
func (w *columnWriter) column(s *source, f int, flagAt []int, all bool) error {
	flag, fb := byte(1)<<(f&7), f>>3
	data, cur := w.data, w.cur
	switch {
	case s.node.Kind == columnar.KindStruct:
		return w.structColumn(s, f, flagAt, all)
	case s.width < 0 && all && s.AllValid() && (s.node.Kind == columnar.KindString || s.node.Kind == columnar.KindBinary):
		offs, vals := s.Offsets[:len(cur)+1], s.Data
		for r, p := range cur {
			a, b := offs[r], offs[r+1]
			le.PutUint32(data[p:], uint32(b-a))
			cur[r] = p + 4 + copy(data[p+4:], vals[a:b])
		}
		return nil
	case s.width < 0 && all && s.AllValid():
		var err error
		for r, p := range cur {
			if cur[r], err = s.write(r, data, p); err != nil {
				return atRow(err, r)
			}
		}
		return nil
	case s.width < 0:
		var err error
		for r, p := range cur {
			switch {
			case flagAt[r] < 0:
			case !s.IsValid(r):
				if s.notNull {
					return atRow(s.nullError(), r)
				}
				data[flagAt[r]+fb] |= flag
			default:
				if cur[r], err = s.write(r, data, p); err != nil {
					return atRow(err, r)
				}
			}
		}
		return nil
	case all && s.Valid == nil && copyColumn(s, data, cur):
		return nil
	}
	for r, p := range cur {
		if flagAt[r] < 0 {
			continue
		}
		if !s.IsValid(r) {
			if s.notNull {
				return atRow(s.nullError(), r)
			}
			data[flagAt[r]+fb] |= flag
		} else if err := s.putFixed(r, data[p:]); err != nil {
			return atRow(err, r)
		}
		cur[r] = p + s.width
	}
	return nil
}

// structColumn writes each present row's struct null flags, then the
// struct's fields as columns.
func (w *columnWriter) structColumn(s *source, f int, flagAt []int, all bool) error {
	flag, fb := byte(1)<<(f&7), f>>3
	if w.depth == len(w.starts) {
		w.starts = append(w.starts, nil)
	}
	starts := grow(w.starts[w.depth], len(w.cur))
	w.starts[w.depth] = starts
	w.depth++
	defer func() { w.depth-- }()
	nb := nullBytes(len(s.children))
	childAll := all
	for r, p := range w.cur {
		switch {
		case flagAt[r] < 0:
			starts[r] = -1
		case !s.IsValid(r):
			if s.notNull {
				return atRow(s.nullError(), r)
			}
			w.data[flagAt[r]+fb] |= flag
			starts[r] = -1
			childAll = false
		default:
			starts[r] = p
			w.cur[r] = p + nb
		}
	}
	for k, c := range s.children {
		if err := w.column(c, k, starts, childAll); err != nil {
			return err
		}
	}
	return nil
}
