package shuffletest

import (
	"fmt"
	"io"

	"github.com/rowbridge/rowbridge/framing"
)

// streamWriter wraps w in a Spark codec stream writer.
func streamWriter(w io.Writer, codec framing.Codec) (io.WriteCloser, error) {
	if codec == framing.None {
		return nopCloser{w}, nil
	}
	return nil, fmt.Errorf("shuffletest: codec %v not available", codec)
}
