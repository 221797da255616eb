package rowstream

import (
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/rowbridge/rowbridge/arrowvec"
	"github.com/rowbridge/rowbridge/internal/columnar"
	"github.com/rowbridge/rowbridge/internal/rowopt"
)

// ReaderIdleBytes is the most released buffer memory the recycling
// allocator of a codec's Reader without an allocator option keeps for
// reuse.
const ReaderIdleBytes = 256 << 20

// OpenReader is a codec's NewReader: it applies opts, makes the codec's
// decoder with newDec (into a recycling allocator of its own unless opts
// set one), and returns the codec's Reader type R, which embeds the
// Reader of r's framed rows.
func OpenReader[R ~struct{ *Reader }, O ~func(*rowopt.Config) error, D BatchDecoder](pkg string, r io.Reader, schema *arrow.Schema,
	opts []O, newDec func(*columnar.Plan, *rowopt.Config) (D, error)) (*R, error) {
	cfg, err := rowopt.Apply(pkg, rowopt.ForReader, opts)
	if err != nil {
		return nil, err
	}
	if !cfg.MemSet {
		cfg.Mem = arrowvec.NewRecyclingAllocator(ReaderIdleBytes)
	}
	plan, err := rowopt.Plan(pkg, schema)
	if err != nil {
		return nil, err
	}
	dec, err := newDec(plan, cfg)
	if err != nil {
		return nil, err
	}
	rs, err := NewReader(r, schema, dec, cfg.Framing, cfg.Codec, cfg.BatchRows, WithWorkers(cfg.Workers))
	if err != nil {
		return nil, err
	}
	return &R{rs}, nil
}

// OpenWriter is a codec's NewWriter: it applies opts, makes the codec's
// encoder with newEnc, and returns the codec's Writer type W, which embeds
// the Writer of framed rows to w.
func OpenWriter[W ~struct{ *Writer }, O ~func(*rowopt.Config) error, E RowEncoder](pkg string, w io.Writer, schema *arrow.Schema,
	opts []O, newEnc func(*arrow.Schema, *rowopt.Config) (E, error)) (*W, error) {
	cfg, err := rowopt.Apply(pkg, rowopt.ForWriter, opts)
	if err != nil {
		return nil, err
	}
	enc, err := newEnc(schema, cfg)
	if err != nil {
		return nil, err
	}
	ws, err := NewWriter(w, schema, enc, cfg.Framing, cfg.Codec)
	if err != nil {
		return nil, err
	}
	return &W{ws}, nil
}
