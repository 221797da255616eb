package ddl_test

import (
	"math/rand"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/rowbridge/rowbridge/ddl"
	"github.com/rowbridge/rowbridge/internal/testgen"
	"github.com/stretchr/testify/require"
)

// Arrow schema -> Spark JSON -> Arrow schema is the identity for every
// type ddl supports, nullability at every level (list elements and map
// values included, which only JSON can say) and comments too.
func TestJSONRoundTripsRandomSchemas(t *testing.T) {
	r := rand.New(rand.NewSource(13))
	for i := range 2000 {
		s := testgen.RandomSchema(r, testgen.WithMaxDepth(4), testgen.WithNonNullable(0.3))
		s = arrow.NewSchema(varyFields(r, s.Fields()), nil)
		text, err := ddl.FormatJSON(s)
		require.NoError(t, err, "%d: %s", i, s)
		back, err := ddl.Parse(text)
		require.NoError(t, err, "%d: %s", i, text)
		requireSameSchema(t, s, back, text)
		again, err := ddl.FormatJSON(back)
		require.NoError(t, err)
		require.Equal(t, text, again)
	}
}

// varyFields gives list elements and map values random nullability and
// some fields comments with characters JSON must escape.
func varyFields(r *rand.Rand, fields []arrow.Field) []arrow.Field {
	out := make([]arrow.Field, len(fields))
	for i, f := range fields {
		f.Type = varyType(r, f.Type)
		if r.Intn(4) == 0 {
			f.Metadata = arrow.NewMetadata([]string{ddl.CommentKey}, []string{[]string{"", "a \"q\" \\ b", "line\nnext\ttab\x01", "ünï ✓"}[r.Intn(4)]})
		}
		out[i] = f
	}
	return out
}

func varyType(r *rand.Rand, t arrow.DataType) arrow.DataType {
	switch t := t.(type) {
	case *arrow.ListType:
		e := t.ElemField()
		e.Type = varyType(r, e.Type)
		e.Nullable = e.Type.ID() == arrow.NULL || r.Intn(2) == 0
		return arrow.ListOfField(e)
	case *arrow.MapType:
		v := t.ItemField()
		v.Type = varyType(r, v.Type)
		v.Nullable = v.Type.ID() == arrow.NULL || r.Intn(2) == 0
		return arrow.MapOfFields(t.KeyField(), v)
	case *arrow.StructType:
		return arrow.StructOf(varyFields(r, t.Fields())...)
	}
	return t
}

// requireSameSchema compares strictly: names (of list elements and map
// children too), types, nullability and metadata at every level.
func requireSameSchema(t *testing.T, want, got *arrow.Schema, msg string) {
	t.Helper()
	require.Equal(t, want.NumFields(), got.NumFields(), msg)
	for i := range want.Fields() {
		requireSameField(t, want.Field(i), got.Field(i), msg)
	}
}

func requireSameField(t *testing.T, want, got arrow.Field, msg string) {
	t.Helper()
	require.Equal(t, want.Name, got.Name, msg)
	require.Equal(t, want.Nullable, got.Nullable, "%s: %s", want.Name, msg)
	require.True(t, want.Metadata.Equal(got.Metadata), "%s: metadata %v, got %v", want.Name, want.Metadata, got.Metadata)
	require.Equal(t, want.Type.ID(), got.Type.ID(), "%s: %s", want.Name, msg)
	switch wt := want.Type.(type) {
	case *arrow.ListType:
		requireSameField(t, wt.ElemField(), got.Type.(*arrow.ListType).ElemField(), msg)
	case *arrow.MapType:
		gt := got.Type.(*arrow.MapType)
		require.Equal(t, wt.ElemField().Name, gt.ElemField().Name)
		require.Equal(t, wt.ElemField().Nullable, gt.ElemField().Nullable)
		requireSameField(t, wt.KeyField(), gt.KeyField(), msg)
		requireSameField(t, wt.ItemField(), gt.ItemField(), msg)
	case *arrow.StructType:
		gt := got.Type.(*arrow.StructType)
		require.Equal(t, wt.NumFields(), gt.NumFields(), msg)
		for i := range wt.Fields() {
			requireSameField(t, wt.Field(i), gt.Field(i), msg)
		}
	default:
		require.True(t, arrow.TypeEqual(want.Type, got.Type), "%s: %s vs %s", want.Name, want.Type, got.Type)
	}
}
