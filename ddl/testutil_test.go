package ddl

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

// sameField compares fields the strict way: names of list elements and map
// children too (arrow.TypeEqual ignores list element names), nullability,
// and comments.
func sameField(a, b arrow.Field) bool {
	ca, oka := fieldComment(a)
	cb, okb := fieldComment(b)
	return a.Name == b.Name && a.Nullable == b.Nullable && ca == cb && oka == okb && sameType(a.Type, b.Type)
}

func sameType(a, b arrow.DataType) bool {
	if a.ID() != b.ID() {
		return false
	}
	switch a := a.(type) {
	case *arrow.ListType:
		return sameField(a.ElemField(), b.(*arrow.ListType).ElemField())
	case *arrow.MapType:
		bm := b.(*arrow.MapType)
		return a.ElemField().Name == bm.ElemField().Name && a.ElemField().Nullable == bm.ElemField().Nullable &&
			sameField(a.KeyField(), bm.KeyField()) && sameField(a.ItemField(), bm.ItemField())
	case *arrow.StructType:
		bs := b.(*arrow.StructType)
		if a.NumFields() != bs.NumFields() {
			return false
		}
		for i := range a.Fields() {
			if !sameField(a.Field(i), bs.Field(i)) {
				return false
			}
		}
		return true
	}
	return arrow.TypeEqual(a, b)
}

func sameSchema(a, b *arrow.Schema) bool {
	if a.NumFields() != b.NumFields() {
		return false
	}
	for i := range a.Fields() {
		if !sameField(a.Field(i), b.Field(i)) {
			return false
		}
	}
	return true
}

func assertSchemaStrict(t testing.TB, want, got *arrow.Schema) {
	t.Helper()
	if !sameSchema(want, got) {
		t.Errorf("schemas differ\nwant: %s\n got: %s", want, got)
	}
}

// notationView is what of s survives a trip through notation n.
func notationView(s *arrow.Schema, n Notation) *arrow.Schema {
	switch n {
	case NotationVelox:
		return veloxView(s)
	case NotationCatalog:
		return catalogView(s)
	case NotationDDL:
		return ddlView(s)
	}
	return s
}

// ddlView is what survives Spark DDL: list elements and map values are
// nullable.
func ddlView(s *arrow.Schema) *arrow.Schema {
	fs := make([]arrow.Field, s.NumFields())
	for i, f := range s.Fields() {
		fs[i] = ddlField(f)
	}
	return arrow.NewSchema(fs, nil)
}

func ddlField(f arrow.Field) arrow.Field {
	f.Type = ddlType(f.Type)
	return f
}

func ddlType(t arrow.DataType) arrow.DataType {
	switch t := t.(type) {
	case *arrow.ListType:
		return ListOf(ddlType(t.Elem()))
	case *arrow.MapType:
		return MapOf(ddlType(t.KeyType()), ddlType(t.ItemType()))
	case *arrow.StructType:
		fs := make([]arrow.Field, t.NumFields())
		for i, f := range t.Fields() {
			fs[i] = ddlField(f)
		}
		return arrow.StructOf(fs...)
	}
	return t
}

// catalogView is what survives a trip through a catalog string: every
// field nullable, no comments.
func catalogView(s *arrow.Schema) *arrow.Schema {
	fs := make([]arrow.Field, s.NumFields())
	for i, f := range s.Fields() {
		fs[i] = catalogField(f)
	}
	return arrow.NewSchema(fs, nil)
}

func catalogField(f arrow.Field) arrow.Field {
	return arrow.Field{Name: f.Name, Type: catalogType(f.Type), Nullable: true}
}

func catalogType(t arrow.DataType) arrow.DataType {
	switch t := t.(type) {
	case *arrow.ListType:
		return ListOf(catalogType(t.Elem()))
	case *arrow.MapType:
		return MapOf(catalogType(t.KeyType()), catalogType(t.ItemType()))
	case *arrow.StructType:
		fs := make([]arrow.Field, t.NumFields())
		for i, f := range t.Fields() {
			fs[i] = catalogField(f)
		}
		return arrow.StructOf(fs...)
	}
	return t
}

// veloxView is what survives a trip through Velox notation: every field
// nullable, no comments, one timestamp kind.
func veloxView(s *arrow.Schema) *arrow.Schema {
	fs := make([]arrow.Field, s.NumFields())
	for i, f := range s.Fields() {
		fs[i] = veloxField(f)
	}
	return arrow.NewSchema(fs, nil)
}

func veloxField(f arrow.Field) arrow.Field {
	return arrow.Field{Name: f.Name, Type: veloxType(f.Type), Nullable: true}
}

func veloxType(t arrow.DataType) arrow.DataType {
	switch t := t.(type) {
	case *arrow.ListType:
		return ListOf(veloxType(t.Elem()))
	case *arrow.MapType:
		return MapOf(veloxType(t.KeyType()), veloxType(t.ItemType()))
	case *arrow.StructType:
		fs := make([]arrow.Field, t.NumFields())
		for i, f := range t.Fields() {
			fs[i] = veloxField(f)
		}
		return arrow.StructOf(fs...)
	case *arrow.TimestampType:
		return Timestamp()
	}
	return t
}
