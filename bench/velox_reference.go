package bench

// veloxDecodeMicros is Velox's published UnsafeRowFast::deserialize time in
// µs per 1000 rows of UnsafeRowSerializeBenchmark (Velox #11936, docs/velox-benchmarks.md, "Row serde: Velox's published figures";
// the author called them noisy). With 1000 rows per iteration the figure
// is also ns per row.
var veloxDecodeMicros = map[string]float64{
	"fixedWidth5":  23.1,
	"fixedWidth10": 70.8,
	"fixedWidth20": 183.0,
	"strings1":     33.9,
	"strings5":     100.8,
	"arrays":       33.9,
	"nestedArrays": 134.8,
	"maps":         107.0,
	"structs":      59.4,
}

// VeloxNsPerRow is Velox's published figure for the case, when there is
// one: unsafe_deserialize_<shape> only, the one Velox reported.
func VeloxNsPerRow(c Case) (float64, bool) {
	r, ok := ParseRowCase(c)
	if !ok || r.Impl != ImplUnsafe || r.Op != OpDeserialize {
		return 0, false
	}
	us, ok := veloxDecodeMicros[r.Shape]
	return us * 1000 / rowBenchRows, ok
}
