package ddl

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/rowbridge/rowbridge/internal/jsonstr"
)

// Spark's StructType JSON, what df.schema.json() prints and
// DataType.fromJson reads:
//
//	{"type":"struct","fields":[{"name":"a","type":"integer","nullable":true,"metadata":{}}]}
//
// with nested {"type":"array","elementType":T,"containsNull":B},
// {"type":"map","keyType":K,"valueType":V,"valueContainsNull":B} and
// {"type":"struct","fields":[...]}, and primitive types as their Spark
// type names ("integer", "long", "decimal(10,2)", "timestamp_ntz", "void").

// FormatJSON prints a schema as Spark's compact StructType JSON, exactly as
// StructType.json does. List element and map value nullability, which the
// text notations cannot say, are kept (containsNull, valueContainsNull);
// a field comment is the metadata's "comment".
func FormatJSON(s *arrow.Schema) (string, error) {
	b, err := appendStructJSON(nil, s.Fields())
	return string(b), err
}

func appendStructJSON(dst []byte, fields []arrow.Field) ([]byte, error) {
	dst = append(dst, `{"type":"struct","fields":[`...)
	for i, f := range fields {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"name":`...)
		dst = appendJSONString(dst, f.Name)
		dst = append(dst, `,"type":`...)
		var err error
		if dst, err = appendTypeJSON(dst, f.Type); err != nil {
			return nil, err
		}
		dst = append(dst, `,"nullable":`...)
		dst = strconv.AppendBool(dst, f.Nullable)
		dst = append(dst, `,"metadata":{`...)
		if c, ok := fieldComment(f); ok {
			dst = append(dst, `"comment":`...)
			dst = appendJSONString(dst, c)
		}
		dst = append(dst, "}}"...)
	}
	return append(dst, "]}"...), nil
}

func appendTypeJSON(dst []byte, t arrow.DataType) ([]byte, error) {
	var err error
	switch t := t.(type) {
	case *arrow.StructType:
		return appendStructJSON(dst, t.Fields())
	case *arrow.ListType:
		dst = append(dst, `{"type":"array","elementType":`...)
		if dst, err = appendTypeJSON(dst, t.Elem()); err != nil {
			return nil, err
		}
		dst = append(dst, `,"containsNull":`...)
		dst = strconv.AppendBool(dst, t.ElemField().Nullable)
		return append(dst, '}'), nil
	case *arrow.MapType:
		dst = append(dst, `{"type":"map","keyType":`...)
		if dst, err = appendTypeJSON(dst, t.KeyType()); err != nil {
			return nil, err
		}
		dst = append(dst, `,"valueType":`...)
		if dst, err = appendTypeJSON(dst, t.ItemType()); err != nil {
			return nil, err
		}
		dst = append(dst, `,"valueContainsNull":`...)
		dst = strconv.AppendBool(dst, t.ItemField().Nullable)
		return append(dst, '}'), nil
	}
	name, err := jsonTypeName(t)
	if err != nil {
		return nil, err
	}
	return appendJSONString(dst, name), nil
}

// jsonTypeName is Spark's typeName of a non-nested type.
func jsonTypeName(t arrow.DataType) (string, error) {
	spark, _, err := primitiveName(t)
	if err != nil {
		return "", err
	}
	switch spark {
	case "TINYINT":
		return "byte", nil
	case "SMALLINT":
		return "short", nil
	case "INT":
		return "integer", nil
	case "BIGINT":
		return "long", nil
	}
	return strings.ToLower(spark), nil
}

// appendJSONString writes s as a JSON string the way Spark's Jackson does
// (jsonstr.Jackson: \b and \f as short escapes).
func appendJSONString(dst []byte, s string) []byte { return jsonstr.Append(dst, s, jsonstr.Jackson) }

// ParseJSON reads Spark's StructType JSON (as df.schema.json() or
// DataType.json print it, compact or pretty). It accepts what
// DataType.fromJson accepts: "nullable" and "metadata" may be missing
// (nullable then), "decimal" alone is decimal(10,0), "null" is void,
// "timestamp_ltz" is timestamp; char(n), varchar(n) and collated strings
// read as strings; a user-defined type ("type":"udt") reads as its sqlType,
// the type its values are stored as. Keys other than Spark's are errors, as
// in Spark. Of a field's metadata only "comment" is kept. Errors are
// *SyntaxError pointing at the offending value.
func ParseJSON(s string) (*arrow.Schema, error) {
	p := &jsonParser{input: s}
	if !utf8.ValidString(s) {
		off := 0
		for off < len(s) {
			r, size := utf8.DecodeRuneInString(s[off:])
			if r == utf8.RuneError && size == 1 {
				break
			}
			off += size
		}
		return nil, p.errAtOffset(off, "invalid UTF-8")
	}
	root, err := p.parse()
	if err != nil {
		return nil, err
	}
	if root.kind != jObject || root.get("type") == nil || root.get("type").str != "struct" {
		return nil, p.errAt(root, "a schema's JSON must be a struct: {\"type\":\"struct\",\"fields\":[...]}")
	}
	t, err := p.dataType(root, 0)
	if err != nil {
		return nil, err
	}
	return arrow.NewSchema(t.(*arrow.StructType).Fields(), nil), nil
}

type jsonKind int

const (
	jNull jsonKind = iota
	jBool
	jNumber
	jString
	jArray
	jObject
)

func (k jsonKind) String() string {
	return [...]string{"null", "a boolean", "a number", "a string", "an array", "an object"}[k]
}

// jsonValue is a parsed JSON value that remembers where it starts.
type jsonValue struct {
	kind  jsonKind
	pos   int // byte offset of the value in the input
	str   string
	b     bool
	items []*jsonValue
	keys  []string
	kpos  []int // byte offsets of the keys
	vals  []*jsonValue
}

func (v *jsonValue) get(key string) *jsonValue {
	for i, k := range v.keys {
		if k == key {
			return v.vals[i]
		}
	}
	return nil
}

type jsonParser struct {
	input string
	dec   *json.Decoder
}

// maxJSONDepth bounds JSON nesting: each type level is at most four JSON
// levels (struct, fields array, field, type).
const maxJSONDepth = 4*maxDepth + 4

func (p *jsonParser) parse() (*jsonValue, error) {
	p.dec = json.NewDecoder(strings.NewReader(p.input))
	p.dec.UseNumber()
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	start := p.skipSpace(int(p.dec.InputOffset()))
	if _, err := p.dec.Token(); err != io.EOF {
		return nil, p.errAtOffset(start, "unexpected text after the end of the JSON schema")
	}
	return v, nil
}

// skipSpace moves off past whitespace and the separators json.Decoder
// consumes silently, to the start of the next token.
func (p *jsonParser) skipSpace(off int) int {
	for off < len(p.input) && strings.IndexByte(" \t\r\n,:", p.input[off]) >= 0 {
		off++
	}
	return off
}

func (p *jsonParser) token() (json.Token, int, error) {
	start := p.skipSpace(int(p.dec.InputOffset()))
	tok, err := p.dec.Token()
	if err != nil {
		var se *json.SyntaxError
		switch {
		case errors.As(err, &se):
			// Offset counts the bytes before the offending one.
			return nil, 0, p.errAtOffset(int(se.Offset), "invalid JSON: %s", se.Error())
		case err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF):
			return nil, 0, p.errAtOffset(len(p.input), "the JSON ends too early")
		}
		return nil, 0, p.errAtOffset(start, "invalid JSON: %v", err)
	}
	return tok, start, nil
}

func (p *jsonParser) value(depth int) (*jsonValue, error) {
	tok, start, err := p.token()
	if err != nil {
		return nil, err
	}
	if depth > maxJSONDepth {
		return nil, p.errAtOffset(start, "JSON nested deeper than %d levels", maxJSONDepth)
	}
	v := &jsonValue{pos: start}
	switch tok := tok.(type) {
	case nil:
		v.kind = jNull
	case bool:
		v.kind, v.b = jBool, tok
	case json.Number:
		v.kind, v.str = jNumber, string(tok)
	case string:
		v.kind, v.str = jString, tok
	case json.Delim:
		switch tok {
		case '[':
			v.kind = jArray
			for p.dec.More() {
				item, err := p.value(depth + 1)
				if err != nil {
					return nil, err
				}
				v.items = append(v.items, item)
			}
		case '{':
			v.kind = jObject
			for p.dec.More() {
				k, kpos, err := p.token()
				if err != nil {
					return nil, err
				}
				key := k.(string) // json.Decoder allows only strings here
				if v.get(key) != nil {
					return nil, p.errAtOffset(kpos, "duplicate key %q", key)
				}
				val, err := p.value(depth + 1)
				if err != nil {
					return nil, err
				}
				v.keys, v.kpos, v.vals = append(v.keys, key), append(v.kpos, kpos), append(v.vals, val)
			}
		}
		if _, _, err := p.token(); err != nil { // the closing delimiter
			return nil, err
		}
	}
	return v, nil
}

// errAtOffset makes a *SyntaxError at byte offset off.
func (p *jsonParser) errAtOffset(off int, format string, args ...any) *SyntaxError {
	off = min(max(off, 0), len(p.input))
	return &SyntaxError{Input: p.input, Pos: utf8.RuneCountInString(p.input[:off]) + 1, Msg: fmt.Sprintf(format, args...)}
}

func (p *jsonParser) errAt(v *jsonValue, format string, args ...any) *SyntaxError {
	return p.errAtOffset(v.pos, format, args...)
}

// object checks that v is an object with exactly the keys required plus
// any of optional, as Spark's parser matches them, and describes what is
// wrong in terms of what (say "an array type").
func (p *jsonParser) object(v *jsonValue, what string, required, optional []string) error {
	if v.kind != jObject {
		return p.errAt(v, "expected %s (a JSON object), found %s", what, v.kind)
	}
	allowed := map[string]bool{}
	for _, k := range append(append([]string(nil), required...), optional...) {
		allowed[k] = true
	}
	for i, k := range v.keys {
		if !allowed[k] {
			keys := append(append([]string(nil), required...), optional...)
			sort.Strings(keys)
			return p.errAtOffset(v.kpos[i], "unexpected key %q in %s (Spark's keys: %s)", k, what, strings.Join(keys, ", "))
		}
	}
	for _, k := range required {
		if v.get(k) == nil {
			return p.errAt(v, "%s needs the key %q", what, k)
		}
	}
	return nil
}

func (p *jsonParser) boolean(v *jsonValue, key string) (bool, error) {
	if v.kind != jBool {
		return false, p.errAt(v, "%q must be true or false, found %s", key, v.kind)
	}
	return v.b, nil
}

var (
	jsonDecimal  = regexp.MustCompile(`^decimal\(\s*(\d+)\s*,\s*(-?\d+)\s*\)$`)
	jsonCharType = regexp.MustCompile(`^(?:var)?char\(\s*(\d+)\s*\)$`)
	jsonCollated = regexp.MustCompile("^string\\s+collate\\s+([\\w_]+|`[\\w_]+`)$")
)

// jsonPrimitives are Spark's typeNames that have a counterpart here.
var jsonPrimitives = map[string]func() arrow.DataType{
	"boolean":       primitives["BOOLEAN"],
	"byte":          primitives["TINYINT"],
	"short":         primitives["SMALLINT"],
	"integer":       primitives["INT"],
	"long":          primitives["BIGINT"],
	"float":         primitives["FLOAT"],
	"double":        primitives["DOUBLE"],
	"date":          primitives["DATE"],
	"timestamp":     primitives["TIMESTAMP"],
	"timestamp_ltz": primitives["TIMESTAMP"],
	"timestamp_ntz": primitives["TIMESTAMP_NTZ"],
	"string":        primitives["STRING"],
	"binary":        primitives["BINARY"],
	"void":          primitives["VOID"],
	"null":          primitives["VOID"],
	"decimal":       func() arrow.DataType { return Decimal(DefaultDecimalPrecision, 0) },
}

func (p *jsonParser) dataType(v *jsonValue, depth int) (arrow.DataType, error) {
	if depth > maxDepth {
		return nil, p.errAt(v, "types nested deeper than %d levels", maxDepth)
	}
	switch v.kind {
	case jString:
		return p.primitive(v)
	case jObject:
	default:
		return nil, p.errAt(v, "expected a type (a type name or an object with \"type\"), found %s", v.kind)
	}
	tv := v.get("type")
	if tv == nil || tv.kind != jString {
		return nil, p.errAt(v, "a type object needs \"type\": \"struct\", \"array\", \"map\" or \"udt\"")
	}
	switch tv.str {
	case "struct":
		if err := p.object(v, "a struct type", []string{"type", "fields"}, nil); err != nil {
			return nil, err
		}
		fv := v.get("fields")
		if fv.kind != jArray {
			return nil, p.errAt(fv, "\"fields\" must be an array, found %s", fv.kind)
		}
		fields := make([]arrow.Field, len(fv.items))
		seen := map[string]int{}
		for i, item := range fv.items {
			f, err := p.field(item, depth)
			if err != nil {
				return nil, err
			}
			if j, dup := seen[strings.ToLower(f.Name)]; dup {
				return nil, p.errAt(item.get("name"), "%s", duplicateMsg(f.Name, fields[j].Name))
			}
			seen[strings.ToLower(f.Name)] = i
			fields[i] = f
		}
		return arrow.StructOf(fields...), nil
	case "array":
		if err := p.object(v, "an array type", []string{"type", "elementType", "containsNull"}, nil); err != nil {
			return nil, err
		}
		elem, err := p.dataType(v.get("elementType"), depth+1)
		if err != nil {
			return nil, err
		}
		nullable, err := p.boolean(v.get("containsNull"), "containsNull")
		if err != nil {
			return nil, err
		}
		return arrow.ListOfField(arrow.Field{Name: ListElementName, Type: elem, Nullable: nullable}), nil
	case "map":
		if err := p.object(v, "a map type", []string{"type", "keyType", "valueType", "valueContainsNull"}, nil); err != nil {
			return nil, err
		}
		key, err := p.dataType(v.get("keyType"), depth+1)
		if err != nil {
			return nil, err
		}
		val, err := p.dataType(v.get("valueType"), depth+1)
		if err != nil {
			return nil, err
		}
		nullable, err := p.boolean(v.get("valueContainsNull"), "valueContainsNull")
		if err != nil {
			return nil, err
		}
		return arrow.MapOfFields(
			arrow.Field{Name: MapKeyName, Type: key},
			arrow.Field{Name: MapValueName, Type: val, Nullable: nullable},
		), nil
	case "udt":
		// Scala UDTs carry class, pyClass and sqlType; Python ones pyClass,
		// serializedClass and sqlType. The values are stored as sqlType.
		if err := p.object(v, "a user-defined type", []string{"type", "sqlType"}, []string{"class", "pyClass", "serializedClass"}); err != nil {
			return nil, err
		}
		return p.dataType(v.get("sqlType"), depth+1)
	}
	return nil, p.errAt(tv, "unknown type %q (want \"struct\", \"array\", \"map\" or \"udt\")", tv.str)
}

func (p *jsonParser) primitive(v *jsonValue) (arrow.DataType, error) {
	name := v.str
	if mk, ok := jsonPrimitives[name]; ok {
		return mk(), nil
	}
	if m := jsonDecimal.FindStringSubmatch(name); m != nil {
		prec, perr := strconv.Atoi(m[1])
		scale, serr := strconv.Atoi(m[2])
		if perr != nil || prec < 1 || prec > MaxDecimalPrecision {
			return nil, p.errAt(v, "decimal precision %s is out of range [1, %d]", m[1], MaxDecimalPrecision)
		}
		if serr != nil || scale < 0 || scale > prec {
			return nil, p.errAt(v, "decimal scale %s is out of range [0, %d]", m[2], prec)
		}
		return Decimal(int32(prec), int32(scale)), nil
	}
	if m := jsonCharType.FindStringSubmatch(name); m != nil {
		if n, err := strconv.Atoi(m[1]); err != nil || n < 1 {
			return nil, p.errAt(v, "expected a positive length in %q", name)
		}
		return arrow.BinaryTypes.String, nil
	}
	if jsonCollated.MatchString(name) || name == "string collate INDETERMINATE" {
		return arrow.BinaryTypes.String, nil // the collation orders values; the bytes are UTF-8
	}
	if strings.HasPrefix(name, "interval") || name == "variant" || strings.HasPrefix(name, "time") ||
		strings.HasPrefix(name, "geometry") || strings.HasPrefix(name, "geography") {
		return nil, p.errAt(v, "Spark type %q has no Arrow type in rowbridge", name)
	}
	return nil, p.errAt(v, "unknown type %q", name)
}

// field reads {"name":..,"type":..,"nullable":..,"metadata":{..}}.
func (p *jsonParser) field(v *jsonValue, depth int) (arrow.Field, error) {
	if err := p.object(v, "a struct field", []string{"name", "type"}, []string{"nullable", "metadata"}); err != nil {
		return arrow.Field{}, err
	}
	nv := v.get("name")
	if nv.kind != jString {
		return arrow.Field{}, p.errAt(nv, "a field's \"name\" must be a string, found %s", nv.kind)
	}
	t, err := p.dataType(v.get("type"), depth+1)
	if err != nil {
		return arrow.Field{}, err
	}
	f := arrow.Field{Name: nv.str, Type: t, Nullable: true}
	if n := v.get("nullable"); n != nil {
		if f.Nullable, err = p.boolean(n, "nullable"); err != nil {
			return arrow.Field{}, err
		}
	}
	if m := v.get("metadata"); m != nil {
		if m.kind != jObject {
			return arrow.Field{}, p.errAt(m, "a field's \"metadata\" must be an object, found %s", m.kind)
		}
		if c := m.get(CommentKey); c != nil {
			if c.kind != jString {
				return arrow.Field{}, p.errAt(c, "a field's comment must be a string, found %s", c.kind)
			}
			f.Metadata = arrow.NewMetadata([]string{CommentKey}, []string{c.str})
		}
	}
	return f, nil
}

// duplicateMsg describes a field whose name repeats, ignoring case as
// Spark does (spark.sql.caseSensitive is false by default), that of an
// earlier field.
func duplicateMsg(name, earlier string) string {
	if name == earlier {
		return fmt.Sprintf("duplicate field name %q", name)
	}
	return fmt.Sprintf("duplicate field name %q: Spark ignores case in names, and %q comes before it", name, earlier)
}

// looksLikeJSON reports whether s starts, after white space, with '{'.
func looksLikeJSON(s string) bool {
	t := strings.TrimLeft(s, " \t\r\n\ufeff")
	return strings.HasPrefix(t, "{")
}
