package testgen

import (
	"math/rand"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestShapes(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	byName := map[string]Shape{}
	for _, s := range Shapes() {
		require.NotContains(t, byName, s.Name, "duplicate shape name")
		byName[s.Name] = s
		rec := RandomBatch(mem, rand.New(rand.NewSource(7)), s.Schema, 40, s.BatchOptions...)
		assert.True(t, ValidateBatch(t, rec), s.Name)
		rec.Release()
	}
	assert.Equal(t, 65, byName["fields65"].Schema.NumFields())
	assert.Equal(t, 130, byName["fields130"].Schema.NumFields())

	v := byName["velox12841"].Schema
	require.Equal(t, 1, v.NumFields())
	m := v.Field(0).Type.(*arrow.MapType)
	assert.Equal(t, arrow.INT32, m.KeyType().ID())
	row := m.ItemType().(*arrow.StructType)
	assert.Equal(t, arrow.LIST, row.Field(0).Type.ID())
	assert.Equal(t, arrow.INT32, row.Field(1).Type.ID())

	an := byName["arrayOfNullThenField"].Schema
	assert.Equal(t, arrow.NULL, an.Field(0).Type.(*arrow.ListType).Elem().ID())
	assert.Equal(t, arrow.INT64, an.Field(1).Type.ID())

	all := byName["allNull"]
	rec := RandomBatch(mem, rand.New(rand.NewSource(1)), all.Schema, 30, all.BatchOptions...)
	defer rec.Release()
	for c, col := range rec.Columns() {
		assert.Equal(t, 30, col.NullN(), "column %d", c)
	}

	nn := byName["notNull"]
	rec2 := RandomBatch(mem, rand.New(rand.NewSource(1)), nn.Schema, 200, nn.BatchOptions...)
	defer rec2.Release()
	for c, col := range rec2.Columns() {
		assert.Zero(t, col.NullN(), "column %d", c)
	}
}
