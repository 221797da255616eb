package unsaferow

import (
	"fmt"

	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/internal/columnar"
)

// A null in a value declared NOT NULL (map keys always are) fails the
// encode, as in compactrow; a NOT NULL value under a null parent is not
// looked at. The check is its own pass before sizing, over the columns
// whose views are marked by bind: a NOT NULL array with nulls somewhere, or
// a parent of one. Batches whose NOT NULL arrays hold no nulls, and
// schemas without NOT NULL, skip it entirely.

// markNotNullCheck sets v.check after bind: whether the pass must look
// into v. A view has nulls (valid != nil) only if its array's null count,
// counted over its own slice, is above zero.
func (v *encView) markNotNullCheck() {
	v.check = v.f.notNull && v.Valid != nil
	for i := range v.kids {
		v.check = v.check || v.kids[i].check
	}
}

// checkNotNull fails w at the first null, row by row and column by column,
// of a NOT NULL value whose parents are all valid.
func (e *Encoder) checkNotNull(w *encWalker, cols []encView, n int) {
	for k := range cols {
		v := &cols[k]
		if !v.check {
			continue
		}
		for i := range n {
			w.row = i
			if !w.checkEntry(v, i, false) {
				return
			}
		}
	}
}

// checkEntry checks entry j of v and, when it is valid, its descendants;
// false means w has failed. key says v holds map keys.
func (w *encWalker) checkEntry(v *encView, j int, key bool) bool {
	if !v.IsValid(j) {
		if !v.f.notNull {
			return true
		}
		msg := "null in a NOT NULL field"
		if key {
			msg = "null map key"
		}
		w.fail(v.f, fmt.Errorf("%w: %s", rowbridge.ErrValue, msg))
		return false
	}
	switch v.f.kind {
	case columnar.KindStruct:
		for k := range v.kids {
			if c := &v.kids[k]; c.check && !w.checkEntry(c, j, false) {
				return false
			}
		}
	case columnar.KindList, columnar.KindMap:
		start, n := v.span(j)
		for k := range v.kids {
			c := &v.kids[k]
			if !c.check {
				continue
			}
			for e := start; e < start+n; e++ {
				if !w.checkEntry(c, e, v.f.kind == columnar.KindMap && k == 0) {
					return false
				}
			}
		}
	}
	return true
}
