package trycast

import "testing"

func TestParseBoolDialects(t *testing.T) {
	tr, fa, null := any(true), any(false), any(nil)
	cases := []struct {
		in   string
		want [3]any // Presto, Spark, SparkANSI
	}{
		{"t", [3]any{tr, tr, tr}}, {"TRUE", [3]any{tr, tr, tr}}, {"tRuE", [3]any{tr, tr, tr}},
		{"1", [3]any{tr, tr, tr}}, {"f", [3]any{fa, fa, fa}}, {"False", [3]any{fa, fa, fa}},
		{"0", [3]any{fa, fa, fa}},
		{"y", [3]any{null, tr, tr}}, {"YeS", [3]any{null, tr, tr}},
		{"n", [3]any{null, fa, fa}}, {"NO", [3]any{null, fa, fa}},
		{" true", [3]any{null, tr, tr}}, {"\t1\x00", [3]any{null, tr, tr}},
		{"", [3]any{null, null, null}}, {" ", [3]any{null, null, null}},
		{"on", [3]any{null, null, null}}, {"off", [3]any{null, null, null}},
		{"tr", [3]any{null, null, null}}, {"tru", [3]any{null, null, null}},
		{"12", [3]any{null, null, null}}, {"-1", [3]any{null, null, null}},
		{"nan", [3]any{null, null, null}}, {"yess", [3]any{null, null, null}},
	}
	for _, c := range cases {
		for d := Presto; d <= SparkANSI; d++ {
			got, ok := ParseBool([]byte(c.in), d)
			if c.want[d] == nil {
				if ok {
					t.Errorf("%v ParseBool(%q) = %v, want NULL", d, c.in, got)
				}
			} else if !ok || got != c.want[d].(bool) {
				t.Errorf("%v ParseBool(%q) = %v, %v; want %v", d, c.in, got, ok, c.want[d])
			}
		}
	}
}
