package testgen

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// Where a value sits, for counting nulls per level.
const (
	atTop          = "top-level field"
	atStructField  = "struct field"
	atListElement  = "list element"
	atMapValue     = "map value"
	atMapKey       = "map key"
	wholeStruct    = "whole struct"
	wholeList      = "whole list"
	wholeMap       = "whole map"
	primitiveValue = "primitive"
)

// visitor sees every value reachable without passing a null, with its
// position kind.
type visitor func(where string, a arrow.Array, i int)

func walkBatch(rec arrow.RecordBatch, v visitor) {
	for c := 0; c < int(rec.NumCols()); c++ {
		col := rec.Column(c)
		for i := 0; i < col.Len(); i++ {
			walkValue(atTop, col, i, v)
		}
	}
}

func walkValue(where string, a arrow.Array, i int, v visitor) {
	v(where, a, i)
	if a.IsNull(i) {
		return
	}
	switch a := a.(type) {
	case *array.Map:
		s, e := a.ValueOffsets(i)
		for k := int(s); k < int(e); k++ {
			walkValue(atMapKey, a.Keys(), k, v)
			walkValue(atMapValue, a.Items(), k, v)
		}
	case *array.List:
		s, e := a.ValueOffsets(i)
		for k := int(s); k < int(e); k++ {
			walkValue(atListElement, a.ListValues(), k, v)
		}
	case *array.Struct:
		for f := 0; f < a.NumField(); f++ {
			walkValue(atStructField, a.Field(f), i, v)
		}
	}
}

// kindOf names the container kind of a value, or primitive.
func kindOf(a arrow.Array) string {
	switch a.DataType().ID() {
	case arrow.STRUCT:
		return wholeStruct
	case arrow.LIST:
		return wholeList
	case arrow.MAP:
		return wholeMap
	}
	return primitiveValue
}
