package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/shuffleflight"
)

// copyStreams writes the endpoints' DoGet streams to out as one Arrow IPC
// stream without decoding them: the schema once, then every stream's
// messages after its schema as they came (a FlightData's header and body
// are an IPC message's metadata and body), then the end-of-stream marker;
// each endpoint's DoGet starts while the one before it is copied.
// It writes the bytes the ipc.Writer of the batches read would write.
func (r *endpointReader) copyStreams(out io.Writer) error {
	schema := ipc.GetSchemaPayload(r.schema, memory.DefaultAllocator)
	defer schema.Release()
	if _, err := schema.WritePayload(out); err != nil {
		return err
	}
	var want []byte // the schema message's metadata, as this writer wrote it
	{
		meta := schema.Meta()
		want = bytes.Clone(meta.Bytes())
		meta.Release()
	}
	// The next endpoint's DoGet starts as the current one is copied: its
	// server reads ahead (up to the flow-control window) meanwhile.
	ctx, cancel := context.WithCancel(r.ctx)
	defer cancel()
	r.ctx = ctx
	var next flight.FlightService_DoGetClient
	if len(r.endpoints) > 0 {
		var err error
		if next, err = r.open(); err != nil {
			return err
		}
	}
	for next != nil {
		cur := next
		next = nil
		if len(r.endpoints) > 0 {
			var err error
			if next, err = r.open(); err != nil {
				return err
			}
		}
		if err := copyStream(cur, r.schema, want, out); err != nil {
			return err
		}
	}
	_, err := out.Write([]byte{0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0})
	return err
}

// copyStream copies one DoGet stream's messages after its schema, which
// must be schema (want: its metadata as this side writes it).
func copyStream(stream flight.FlightService_DoGetClient, schema *arrow.Schema, want []byte, out io.Writer) error {
	var prefix [8]byte
	for first := true; ; first = false {
		d, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			if first {
				return fmt.Errorf("an endpoint's stream ended before its schema")
			}
			return nil
		}
		if err != nil {
			return err
		}
		if first {
			if !bytes.Equal(d.DataHeader, want) {
				got, err := messageSchema(d.DataHeader)
				if err != nil {
					return fmt.Errorf("an endpoint's first message: %w", err)
				}
				if !got.Equal(schema) {
					return fmt.Errorf("an endpoint's schema %v differs from the FlightInfo's %v", got, schema)
				}
			}
			continue
		}
		if len(d.DataHeader) == 0 { // app metadata only: no IPC message
			continue
		}
		padded := (len(d.DataHeader) + 8 + 7) &^ 7
		binary.LittleEndian.PutUint32(prefix[:4], 0xffffffff)
		binary.LittleEndian.PutUint32(prefix[4:], uint32(padded-8))
		if _, err := out.Write(prefix[:]); err != nil {
			return err
		}
		if _, err := out.Write(d.DataHeader); err != nil {
			return err
		}
		if pad := padded - 8 - len(d.DataHeader); pad > 0 {
			if _, err := out.Write(make([]byte, pad)); err != nil {
				return err
			}
		}
		if _, err := out.Write(d.DataBody); err != nil {
			return err
		}
		shuffleflight.ReleaseBody(d) // written: its memory serves the next message
	}
}

// messageSchema reads the schema of an IPC schema message's metadata.
func messageSchema(meta []byte) (*arrow.Schema, error) {
	var framed bytes.Buffer
	padded := (len(meta) + 8 + 7) &^ 7
	framed.Write([]byte{0xff, 0xff, 0xff, 0xff})
	_ = binary.Write(&framed, binary.LittleEndian, uint32(padded-8))
	framed.Write(meta)
	framed.Write(make([]byte, padded-8-len(meta)))
	framed.Write([]byte{0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0})
	rd, err := ipc.NewReader(&framed)
	if err != nil {
		return nil, err
	}
	defer rd.Release()
	return rd.Schema(), nil
}
