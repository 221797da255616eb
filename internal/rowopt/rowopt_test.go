package rowopt

import "testing"

// The codecs' documentation states these values.
func TestDocumentedDefaults(t *testing.T) {
	if DefaultBatchRows != 4096 {
		t.Fatalf("DefaultBatchRows is %d; the codecs' comments say 4096", DefaultBatchRows)
	}
}
