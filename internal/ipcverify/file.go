package ipcverify

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// FileMagic opens and ends an Arrow IPC file; a stream starts otherwise.
var FileMagic = []byte("ARROW1")

// Sizes in the file layout: the magic padded to 8 bytes at the start; the
// footer's int32 length and the magic at the end.
const (
	fileHeadSize    = 8
	fileTrailerSize = 4 + 6
)

// File verifies the Arrow IPC file of size bytes that r reads, before
// ipc.NewFileReader reads it: the magic at both ends, the footer length and
// the footer, then every dictionary and record batch block the footer
// lists: the block inside the file, its message's framing and metadata
// (which must be a DictionaryBatch or RecordBatch as the list says, with
// the block's body length), the fields the schema needs, and its compressed
// buffers. It reads the footer and the blocks' metadata, and of the bodies
// only compressed buffers. The error is an *Error for malformed input, else
// r's.
func File(r io.ReaderAt, size int64) error {
	if size < fileHeadSize+fileTrailerSize {
		return errorAt(0, "%d bytes are too few for an Arrow IPC file", size)
	}
	head := make([]byte, len(FileMagic))
	if err := readAt(r, head, 0); err != nil {
		return err
	}
	if !bytes.Equal(head, FileMagic) {
		return errorAt(0, "the file does not start with the magic %q", FileMagic)
	}
	trailer := make([]byte, fileTrailerSize)
	if err := readAt(r, trailer, size-fileTrailerSize); err != nil {
		return err
	}
	if !bytes.Equal(trailer[4:], FileMagic) {
		return errorAt(size-6, "the file does not end with the magic %q", FileMagic)
	}
	footerLen := int64(int32(binary.LittleEndian.Uint32(trailer)))
	footerStart := size - fileTrailerSize - footerLen
	if footerLen <= 0 || footerStart < fileHeadSize {
		return errorAt(size-fileTrailerSize, "footer length %d does not fit in the %d-byte file", footerLen, size)
	}
	footer := make([]byte, footerLen)
	if err := readAt(r, footer, footerStart); err != nil {
		return err
	}
	t, verr := newVerifier(footer, footerStart).root(footerTable)
	if verr != nil {
		return verr
	}
	st, ok := t.child(footerSchema)
	if !ok {
		return errorAt(footerStart+int64(t.pos), "the footer has no schema").within("Footer")
	}
	schema, verr := checkSchema(st, footerStart)
	if verr != nil {
		return verr.within("Footer.schema")
	}
	sent := map[int64]bool{} // dictionary ids
	lastEnd, err := schemaMessageEnd(r, footerStart)
	if err != nil {
		return err
	}
	for _, list := range []struct {
		slot   int
		header uint8
		name   string
	}{
		{footerDictionaries, headerDictionaryBatch, "dictionary"},
		{footerRecordBatches, headerRecordBatch, "record batch"},
	} {
		elems, n := t.vector(list.slot)
		for i := range n {
			p := elems + blockSize*i
			b := block{
				offset:  t.int64At(p),
				metaLen: t.int32At(p + 8),
				bodyLen: t.int64At(p + 16),
				header:  list.header,
				at:      footerStart + int64(p),
			}
			if err := b.check(r, footerStart, schema, sent); err != nil {
				var e *Error
				if errors.As(err, &e) {
					e.inBlock(list.name + " block " + strconv.Itoa(i))
				}
				return err
			}
			lastEnd = max(lastEnd, b.offset+int64(b.metaLen)+b.bodyLen)
		}
	}
	return checkFooterGap(r, lastEnd, footerStart)
}

// schemaMessageEnd is where the schema message after the file's leading
// magic ends: the least end of the messages, for a file of no blocks.
func schemaMessageEnd(r io.ReaderAt, footerStart int64) (int64, error) {
	var p [8]byte
	if footerStart < fileHeadSize+int64(len(p)) {
		return fileHeadSize, nil
	}
	if err := readAt(r, p[:], fileHeadSize); err != nil {
		return 0, err
	}
	end := int64(fileHeadSize) + 4 + int64(binary.LittleEndian.Uint32(p[:4]))
	if binary.LittleEndian.Uint32(p[:4]) == continuation {
		end = fileHeadSize + 8 + int64(binary.LittleEndian.Uint32(p[4:]))
	}
	if end > footerStart {
		return 0, errorAt(fileHeadSize, "the schema message runs past the footer at %d", footerStart)
	}
	return end, nil
}

// checkFooterGap requires the footer to follow the last message, with at
// most an end-of-stream marker between them. Bytes the footer does not
// account for are refused: they are what several Arrow files concatenated
// (cat a.arrow b.arrow) look like, where the last footer's blocks point
// into the first file and the rows of the others would be dropped.
func checkFooterGap(r io.ReaderAt, lastEnd, footerStart int64) error {
	gap := footerStart - lastEnd
	if gap == 0 {
		return nil
	}
	if gap == 4 || gap == 8 {
		p := make([]byte, gap)
		if err := readAt(r, p, lastEnd); err != nil {
			return err
		}
		if (gap == 4 && binary.LittleEndian.Uint32(p) == 0) ||
			(gap == 8 && binary.LittleEndian.Uint32(p) == continuation && binary.LittleEndian.Uint32(p[4:]) == 0) {
			return nil
		}
	}
	return errorAt(lastEnd, "%d bytes between the last message the footer lists and the footer are not an end-of-stream marker (several Arrow files concatenated are not one file)", gap)
}

// block is a Block of the footer: a message in the file.
type block struct {
	offset  int64 // of the message
	metaLen int32 // its framing and metadata
	bodyLen int64
	header  uint8 // the message header the footer's list calls for
	at      int64 // input offset of the Block struct, for errors
}

// check verifies the block's message, which must end by end (the footer);
// sent records the dictionary ids of the blocks before it.
func (b block) check(r io.ReaderAt, end int64, schema *schemaLayout, sent map[int64]bool) error {
	if b.offset < 0 || b.metaLen < 8 || b.bodyLen < 0 ||
		b.offset > end || int64(b.metaLen) > end-b.offset || b.bodyLen > end-b.offset-int64(b.metaLen) {
		return errorAt(b.at, "a message at %d with %d bytes of metadata and a %d-byte body is not inside the file's %d bytes before the footer", b.offset, b.metaLen, b.bodyLen, end)
	}
	meta := make([]byte, b.metaLen)
	if err := readAt(r, meta, b.offset); err != nil {
		return err
	}
	prefix := 4 // the metadata length
	switch binary.LittleEndian.Uint32(meta) {
	case 0:
		return errorAt(b.offset, "an end-of-stream marker where a message should be")
	case continuation:
		prefix = 8
	}
	if n := binary.LittleEndian.Uint32(meta[prefix-4:]); int64(n) != int64(b.metaLen)-int64(prefix) {
		return errorAt(b.offset+int64(prefix)-4, "message length %d differs from the %d bytes the block gives it", n, int64(b.metaLen)-int64(prefix))
	}
	m, err := verifyMessage(meta[prefix:], b.offset+int64(prefix))
	if err != nil {
		return err
	}
	if m.header != b.header {
		return errorAt(b.offset+int64(prefix), "a message with header type %d where the footer lists a %s", m.header, headerName(b.header))
	}
	if m.bodyLen != b.bodyLen {
		return errorAt(b.offset+int64(prefix), "message bodyLength %d differs from the block's %d", m.bodyLen, b.bodyLen)
	}
	if err := checkLayout(m, schema); err != nil {
		return err
	}
	if err := checkDelta(m, sent); err != nil {
		return err
	}
	bodyStart := b.offset + int64(b.metaLen)
	return checkCompressed(m, io.NewSectionReader(r, bodyStart, b.bodyLen), bodyStart)
}

func headerName(h uint8) string {
	switch h {
	case headerSchema:
		return "Schema"
	case headerDictionaryBatch:
		return "DictionaryBatch"
	case headerRecordBatch:
		return "RecordBatch"
	}
	return fmt.Sprintf("header type %d", h)
}

// readAt fills p from r at off; the caller has checked the bytes are there.
func readAt(r io.ReaderAt, p []byte, off int64) error {
	n, err := r.ReadAt(p, off)
	if n == len(p) {
		return nil
	}
	if err == io.EOF || err == nil {
		return truncatedAt(off+int64(n), "the input ends %d bytes into a %d-byte read", n, len(p))
	}
	return err
}
