package rowstream

// RowBuffer holds a copy of a batch of rows end to end, so that the rows
// can outlive the framing reader's buffers (which the next read reuses)
// and travel to another goroutine. Its memory is reused from batch to batch.
type RowBuffer struct {
	data []byte
	rows [][]byte
}

// Copy copies rows into b and returns slices of the copy, valid until the
// next Copy.
func (b *RowBuffer) Copy(rows [][]byte) [][]byte {
	n := 0
	for _, r := range rows {
		n += len(r)
	}
	if cap(b.data) < n {
		b.data = make([]byte, n)
	}
	data := b.data[:n]
	out := b.rows[:0]
	off := 0
	for _, r := range rows {
		end := off + copy(data[off:], r)
		out = append(out, data[off:end:end])
		off = end
	}
	b.rows = out
	return out
}
