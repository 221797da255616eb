package framing

import (
	"encoding/binary"
	"io"
	"slices"

	"github.com/rowbridge/rowbridge"
)

// The Spark framing reads its input straight into the batch buffer, so the
// bytes of a record are written once, by whatever produces them (a codec
// expanding a block, a read of the file), and never copied out of a read
// buffer: data[:tail] holds the records of the current batch with their
// size prefixes, data[tail:] the bytes read ahead of them, which the next
// batch starts with. Reads go to data's spare capacity, kept at least
// growStep (the input buffer's size, so a buffered input hands its reads
// through rather than copying them), and data grows only when that is
// short: by doubling, as bytes arrive, never by a size read from the
// stream.

// maxEmptyReads is how many reads in a row may return nothing before the
// input is taken to be broken (as bufio does).
const maxEmptyReads = 100

// sparkNext reads records until the batch has n rows or the input ends
// (r.err set: io.EOF at a clean end).
func (r *Reader) sparkNext(n int) {
	ahead := copy(r.data, r.data[r.tail:])
	r.data, r.tail = r.data[:ahead], 0
	r.base, r.gaps = r.pos, 0
	empty := 0
	for r.err == nil {
		r.sparkRecords(n)
		if r.err != nil || len(r.spans)/2 >= n {
			return
		}
		if r.readErr != nil {
			r.err = r.sparkEnd()
			return
		}
		if cap(r.data)-len(r.data) < growStep {
			r.data = slices.Grow(r.data, max(len(r.data), growStep))
		}
		m, err := r.in.Read(r.data[len(r.data):cap(r.data)])
		r.data = r.data[:len(r.data)+m]
		switch {
		case err != nil:
			r.readErr = err
		case m > 0:
			empty = 0
		default:
			if empty++; empty == maxEmptyReads {
				r.readErr = io.ErrNoProgress
			}
		}
	}
}

// sparkRecords takes the complete records at data[tail:], up to the
// batch's n rows, skipping end markers; a size beyond the limit sets r.err.
func (r *Reader) sparkRecords(n int) {
	buf := r.data[r.tail:]
	end, k := 0, 0
	tooBig := false
	for len(r.spans)/2 < n && len(buf)-end >= 4 {
		u := binary.BigEndian.Uint32(buf[end:])
		if u == endMarker {
			if len(r.spans) > 0 {
				r.gaps++
			}
			end += 4
			continue
		}
		if int64(u) > int64(r.maxRow) {
			tooBig = true
			break
		}
		if int64(u) > int64(len(buf)-end-4) {
			break
		}
		r.spans = append(r.spans, r.tail+end+4, r.tail+end+4+int(u))
		end += 4 + int(u)
		k++
	}
	r.tail += end
	r.pos += int64(end)
	r.rowsRead += int64(k)
	if tooBig {
		u := binary.BigEndian.Uint32(buf[end:])
		r.err = r.fail(r.pos, -1, rowbridge.ErrOutOfBounds, "row size %d exceeds the %s row limit", u, sizeName(r.maxRow))
	}
}

// sparkEnd is what the end of the input (r.readErr) means for the bytes
// left after the last complete record: io.EOF after none, else the record
// cut short.
func (r *Reader) sparkEnd() error {
	left := r.data[r.tail:]
	err := r.readErr
	if len(left) == 0 {
		if err == io.EOF {
			return io.EOF
		}
		return r.sparkFail(r.pos, err, "row size prefix has 0 of 4 bytes")
	}
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	if len(left) < 4 {
		return r.sparkFail(r.pos, err, "row size prefix has %d of 4 bytes", len(left))
	}
	return r.sparkFail(r.pos, err, "row of %d bytes has only %d", binary.BigEndian.Uint32(left), len(left)-4)
}
