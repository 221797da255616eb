package unsaferow

import (
	"fmt"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/rowbridge/rowbridge/internal/testgen"
)

// TestConcurrentDecodeRowsAndDecode: one Decoder shared by goroutines that
// each decode their own rows, by turns through DecodeRows (whose row
// references live in the pooled scratch) and Decode, gives each the batch
// a lone call gives, byte for byte, with no race (go test -race).
func TestConcurrentDecodeRowsAndDecode(t *testing.T) {
	mem := checkedMem(t)
	const ddl = "s STRUCT<a: BIGINT, b: STRING>, x ARRAY<INT>, y STRING, d DECIMAL(30, 2)"
	schema := mustParseDDL(t, ddl)
	dec := mustDecoder(t, schema, mem)
	const workers = 4
	inputs := make([][][]byte, workers)
	wants := make([]arrow.RecordBatch, workers)
	for w := range workers {
		var js string
		for i := range 50 + 40*w {
			if i > 0 {
				js += ","
			}
			js += fmt.Sprintf(`{"s": {"a": %d, "b": "w%d-%d"}, "x": [%d, %d], "y": %q, "d": "%d.%02d"}`, i, w, i, w, i, fmt.Sprint(w*1000+i), w*7+i, i%100)
		}
		inputs[w] = encodeJSON(t, mem, []Flavor{Spark, Velox}[w%2], ddl, "["+js+"]")
		rec, err := dec.Decode(inputs[w])
		if err != nil {
			t.Fatal(err)
		}
		wants[w] = rec
	}
	defer func() {
		for _, r := range wants {
			r.Release()
		}
	}()
	errs := make(chan string, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			packed := packRows(inputs[w], 8)
			for iter := range 40 {
				var rec arrow.RecordBatch
				var err error
				if iter%2 == 0 {
					rec, err = dec.DecodeRows(packed)
				} else {
					rec, err = dec.Decode(inputs[w])
				}
				if err != nil {
					errs <- err.Error()
					return
				}
				for c := range schema.NumFields() {
					if d := testgen.SameBuffers(schema.Field(c).Name, wants[w].Column(c).Data(), rec.Column(c).Data()); d != "" {
						rec.Release()
						errs <- fmt.Sprintf("worker %d call %d: %s", w, iter, d)
						return
					}
				}
				rec.Release()
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
