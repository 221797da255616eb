package ddl

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/rowbridge/rowbridge"
)

// Format prints a schema in the given notation.
func Format(s *arrow.Schema, n Notation) (string, error) {
	switch n {
	case NotationDDL:
		return FormatDDL(s)
	case NotationCatalog:
		return FormatCatalog(s)
	case NotationVelox:
		return FormatVelox(s)
	case NotationJSON:
		return FormatJSON(s)
	}
	return "", fmt.Errorf("ddl: unknown notation %v: %w", n, arrow.ErrInvalid)
}

// FormatDDL prints a schema as a Spark DDL column list:
// `a INT NOT NULL, b ARRAY<STRING> COMMENT 'x'`. Names are backquoted when
// needed. Spark DDL cannot say that list elements or map values are
// non-null, so that nullability is lost.
func FormatDDL(s *arrow.Schema) (string, error) {
	var b strings.Builder
	for i, f := range s.Fields() {
		if i > 0 {
			b.WriteString(", ")
		}
		if err := writeSparkField(&b, f, " ", false); err != nil {
			return "", err
		}
	}
	return b.String(), nil
}

// FormatCatalog prints a schema as Spark's catalogString does, what Spark's
// catalog stores and shows: `struct<a:int,b:array<string>>`. Like Spark it
// says nothing of nullability or comments; unlike Spark it backquotes a
// name that would not read back (`struct<`a b`:int>`), so that the string
// always parses, in Spark as here.
func FormatCatalog(s *arrow.Schema) (string, error) {
	var b strings.Builder
	if err := writeSparkStruct(&b, s.Fields(), true); err != nil {
		return "", err
	}
	return b.String(), nil
}

// FormatVelox prints a schema as a Velox row type:
// `ROW(a INTEGER, b ARRAY(VARCHAR))`. Velox has one TIMESTAMP, so
// timestamp[us] and timestamp[us, UTC] both print as TIMESTAMP (and parse back
// as the UTC kind); nullability and comments are not written.
func FormatVelox(s *arrow.Schema) (string, error) {
	var b strings.Builder
	if err := writeVeloxRow(&b, s.Fields()); err != nil {
		return "", err
	}
	return b.String(), nil
}

// FormatType prints one type in the given notation.
func FormatType(t arrow.DataType, n Notation) (string, error) {
	var b strings.Builder
	var err error
	switch n {
	case NotationDDL:
		err = writeSparkType(&b, t, false)
	case NotationCatalog:
		err = writeSparkType(&b, t, true)
	case NotationVelox:
		err = writeVeloxType(&b, t)
	case NotationJSON:
		out, err := appendTypeJSON(nil, t)
		return string(out), err
	default:
		return "", fmt.Errorf("ddl: unknown notation %v: %w", n, arrow.ErrInvalid)
	}
	if err != nil {
		return "", err
	}
	return b.String(), nil
}

func unsupported(t arrow.DataType) error {
	return fmt.Errorf("ddl: arrow type %s: %w", t, rowbridge.ErrUnsupportedType)
}

// primitiveName gives the Spark DDL (upper-case) and Velox names of a
// non-nested type.
func primitiveName(t arrow.DataType) (spark, velox string, err error) {
	switch t := t.(type) {
	case *arrow.BooleanType:
		return "BOOLEAN", "BOOLEAN", nil
	case *arrow.Int8Type:
		return "TINYINT", "TINYINT", nil
	case *arrow.Int16Type:
		return "SMALLINT", "SMALLINT", nil
	case *arrow.Int32Type:
		return "INT", "INTEGER", nil
	case *arrow.Int64Type:
		return "BIGINT", "BIGINT", nil
	case *arrow.Float32Type:
		return "FLOAT", "REAL", nil
	case *arrow.Float64Type:
		return "DOUBLE", "DOUBLE", nil
	case *arrow.Date32Type:
		return "DATE", "DATE", nil
	case *arrow.TimestampType:
		if t.Unit != arrow.Microsecond {
			return "", "", unsupported(t)
		}
		// Any zone is Spark's session-zone TIMESTAMP; only the absence of one is NTZ.
		if t.TimeZone == "" {
			return "TIMESTAMP_NTZ", "TIMESTAMP", nil
		}
		return "TIMESTAMP", "TIMESTAMP", nil
	case *arrow.Decimal128Type:
		if t.Precision < 1 || t.Precision > MaxDecimalPrecision || t.Scale < 0 || t.Scale > t.Precision {
			return "", "", unsupported(t)
		}
		d := "DECIMAL(" + strconv.Itoa(int(t.Precision)) + "," + strconv.Itoa(int(t.Scale)) + ")"
		return d, "DECIMAL(" + strconv.Itoa(int(t.Precision)) + ", " + strconv.Itoa(int(t.Scale)) + ")", nil
	case *arrow.StringType:
		return "STRING", "VARCHAR", nil
	case *arrow.BinaryType:
		return "BINARY", "VARBINARY", nil
	case *arrow.NullType:
		return "VOID", "UNKNOWN", nil
	}
	return "", "", unsupported(t)
}

func writeSparkType(b *strings.Builder, t arrow.DataType, lower bool) error {
	kw := func(s string) string {
		if lower {
			return strings.ToLower(s)
		}
		return s
	}
	switch t := t.(type) {
	case *arrow.ListType:
		b.WriteString(kw("ARRAY<"))
		if err := writeSparkType(b, t.Elem(), lower); err != nil {
			return err
		}
		b.WriteByte('>')
		return nil
	case *arrow.MapType:
		b.WriteString(kw("MAP<"))
		if err := writeSparkType(b, t.KeyType(), lower); err != nil {
			return err
		}
		if lower {
			b.WriteByte(',')
		} else {
			b.WriteString(", ")
		}
		if err := writeSparkType(b, t.ItemType(), lower); err != nil {
			return err
		}
		b.WriteByte('>')
		return nil
	case *arrow.StructType:
		return writeSparkStruct(b, t.Fields(), lower)
	}
	name, _, err := primitiveName(t)
	if err != nil {
		return err
	}
	b.WriteString(kw(name))
	return nil
}

func writeSparkStruct(b *strings.Builder, fields []arrow.Field, lower bool) error {
	if lower {
		b.WriteString("struct<")
	} else {
		b.WriteString("STRUCT<")
	}
	for i, f := range fields {
		if i > 0 {
			if lower {
				b.WriteByte(',')
			} else {
				b.WriteString(", ")
			}
		}
		sep := ": "
		if lower {
			sep = ":"
		}
		if err := writeSparkField(b, f, sep, lower); err != nil {
			return err
		}
	}
	b.WriteByte('>')
	return nil
}

func writeSparkField(b *strings.Builder, f arrow.Field, sep string, lower bool) error {
	b.WriteString(quoteName(f.Name, '`'))
	b.WriteString(sep)
	if err := writeSparkType(b, f.Type, lower); err != nil {
		return err
	}
	if lower {
		return nil // a catalog string, which says neither
	}
	if !f.Nullable {
		b.WriteString(" NOT NULL")
	}
	if c, ok := fieldComment(f); ok {
		b.WriteString(" COMMENT ")
		b.WriteString(quoteString(c))
	}
	return nil
}

func fieldComment(f arrow.Field) (string, bool) {
	i := f.Metadata.FindKey(CommentKey)
	if i < 0 {
		return "", false
	}
	return f.Metadata.Values()[i], true
}

func writeVeloxType(b *strings.Builder, t arrow.DataType) error {
	switch t := t.(type) {
	case *arrow.ListType:
		b.WriteString("ARRAY(")
		if err := writeVeloxType(b, t.Elem()); err != nil {
			return err
		}
		b.WriteByte(')')
		return nil
	case *arrow.MapType:
		b.WriteString("MAP(")
		if err := writeVeloxType(b, t.KeyType()); err != nil {
			return err
		}
		b.WriteString(", ")
		if err := writeVeloxType(b, t.ItemType()); err != nil {
			return err
		}
		b.WriteByte(')')
		return nil
	case *arrow.StructType:
		return writeVeloxRow(b, t.Fields())
	}
	_, name, err := primitiveName(t)
	if err != nil {
		return err
	}
	b.WriteString(name)
	return nil
}

func writeVeloxRow(b *strings.Builder, fields []arrow.Field) error {
	b.WriteString("ROW(")
	for i, f := range fields {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(quoteName(f.Name, '"'))
		b.WriteByte(' ')
		if err := writeVeloxType(b, f.Type); err != nil {
			return err
		}
	}
	b.WriteByte(')')
	return nil
}

// quoteName leaves plain identifiers alone and quotes anything else with q,
// doubling q inside. All-digit names are quoted because they lex as numbers.
func quoteName(name string, q byte) string {
	plain := name != "" && !allDigits(name)
	for i := 0; i < len(name) && plain; i++ {
		c := name[i]
		plain = c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	if plain {
		return name
	}
	qs := string(q)
	return qs + strings.ReplaceAll(name, qs, qs+qs) + qs
}

// quoteString writes a COMMENT literal with the backslash escapes lexString reads.
func quoteString(s string) string {
	var b strings.Builder
	b.WriteByte('\'')
	for _, r := range s {
		switch r {
		case '\'', '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		case 0:
			b.WriteString(`\0`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('\'')
	return b.String()
}
