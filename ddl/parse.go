package ddl

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

// Notation names one of the schema notations.
type Notation int

const (
	// NotationDDL is Spark DDL: `a INT, b ARRAY<STRING> NOT NULL COMMENT 'x'`.
	NotationDDL Notation = iota
	// NotationCatalog is a Spark catalog string: `struct<a:int,b:array<string>>`.
	NotationCatalog
	// NotationVelox is a Velox type string: `ROW(a INTEGER, b ARRAY(VARCHAR))`.
	NotationVelox
	// NotationJSON is Spark's StructType JSON, what df.schema.json() prints:
	// `{"type":"struct","fields":[{"name":"a","type":"integer","nullable":true,"metadata":{}}]}`.
	NotationJSON
)

func (n Notation) String() string {
	switch n {
	case NotationDDL:
		return "ddl"
	case NotationCatalog:
		return "catalog"
	case NotationVelox:
		return "velox"
	case NotationJSON:
		return "json"
	}
	return "Notation(" + strconv.Itoa(int(n)) + ")"
}

// Detect tells which notation a schema string is written in: a leading
// '{' is Spark's JSON, a leading ROW( is Velox, a leading struct< is a
// catalog string, anything else is DDL.
func Detect(s string) Notation {
	if looksLikeJSON(s) {
		return NotationJSON
	}
	toks, err := lex(s)
	if err != nil {
		return NotationDDL
	}
	return detect(toks)
}

func detect(toks []token) Notation {
	if len(toks) < 2 || !(toks[1].is("(") || toks[1].is("<")) {
		return NotationDDL
	}
	switch {
	case toks[0].isWord("ROW"):
		return NotationVelox
	case toks[0].isWord("STRUCT"):
		return NotationCatalog
	}
	return NotationDDL
}

// Parse reads a schema in any of the notations, chosen by Detect. Field
// names must differ, ignoring case, within each struct (the top level
// included), as Spark requires of a table's or a data source's schema.
// Errors are *SyntaxError.
func Parse(s string) (*arrow.Schema, error) {
	if looksLikeJSON(s) {
		return ParseJSON(s)
	}
	toks, err := lex(s)
	if err != nil {
		return nil, err
	}
	p := &parser{input: s, toks: toks}
	if detect(toks) == NotationDDL {
		return p.schemaFromColumns()
	}
	return p.schemaFromStruct()
}

// ParseDDL reads a Spark DDL column list: `a INT NOT NULL, b STRING COMMENT 'x'`.
// An empty string is an empty schema.
func ParseDDL(s string) (*arrow.Schema, error) {
	toks, err := lex(s)
	if err != nil {
		return nil, err
	}
	return (&parser{input: s, toks: toks}).schemaFromColumns()
}

// ParseCatalog reads a Spark catalog string: `struct<a:int,b:string>`.
func ParseCatalog(s string) (*arrow.Schema, error) {
	return parseStructSchema(s, "STRUCT", "struct<")
}

// ParseVelox reads a Velox row type: `ROW(a BIGINT, b VARCHAR)`, field names
// optional (missing names become c0, c1, ... by position).
func ParseVelox(s string) (*arrow.Schema, error) {
	return parseStructSchema(s, "ROW", "ROW(")
}

func parseStructSchema(s, keyword, want string) (*arrow.Schema, error) {
	toks, err := lex(s)
	if err != nil {
		return nil, err
	}
	p := &parser{input: s, toks: toks}
	if !toks[0].isWord(keyword) {
		return nil, p.errAt(toks[0], "expected %s...", want)
	}
	return p.schemaFromStruct()
}

// ParseType reads a single type in any notation: `ARRAY<INT>`,
// `map<int,string>`, `ROW(a BIGINT)`, `DECIMAL(12,2)`.
func ParseType(s string) (arrow.DataType, error) {
	toks, err := lex(s)
	if err != nil {
		return nil, err
	}
	p := &parser{input: s, toks: toks}
	t, err := p.dataType()
	if err != nil {
		return nil, err
	}
	if err := p.expectEOF(); err != nil {
		return nil, err
	}
	return t, nil
}

// maxDepth bounds type nesting so hostile input cannot exhaust the stack.
const maxDepth = 64

type parser struct {
	input string
	toks  []token
	i     int
	depth int
}

func (p *parser) peek() token { return p.toks[p.i] }

// peekAt looks k tokens ahead; past the end it returns the EOF token.
func (p *parser) peekAt(k int) token {
	if p.i+k >= len(p.toks) {
		return p.toks[len(p.toks)-1]
	}
	return p.toks[p.i+k]
}

func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tokEOF {
		p.i++
	}
	return t
}

func (p *parser) errAt(t token, format string, args ...any) *SyntaxError {
	return &SyntaxError{Input: p.input, Pos: t.pos, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) expect(punct, context string) error {
	t := p.next()
	if !t.is(punct) {
		return p.errAt(t, "expected %q %s, found %s", punct, context, t.describe())
	}
	return nil
}

func (p *parser) expectEOF() error {
	if t := p.peek(); t.kind != tokEOF {
		return p.errAt(t, "unexpected %s after the end of the schema", t.describe())
	}
	return nil
}

func (p *parser) schemaFromColumns() (*arrow.Schema, error) {
	var fields []arrow.Field
	seen := map[string]int{}
	if p.peek().kind != tokEOF {
		for {
			at := p.peek()
			f, err := p.namedField()
			if err != nil {
				return nil, err
			}
			if err := p.checkDuplicate(seen, fields, f.Name, at); err != nil {
				return nil, err
			}
			fields = append(fields, f)
			t := p.peek()
			if t.kind == tokEOF {
				break
			}
			if !t.is(",") {
				return nil, p.errAt(t, "expected \",\" or end of input after column %q, found %s", f.Name, t.describe())
			}
			p.next()
		}
	}
	return arrow.NewSchema(fields, nil), nil
}

func (p *parser) schemaFromStruct() (*arrow.Schema, error) {
	t, err := p.dataType()
	if err != nil {
		return nil, err
	}
	if err := p.expectEOF(); err != nil {
		return nil, err
	}
	return arrow.NewSchema(t.(*arrow.StructType).Fields(), nil), nil
}

// namedField reads `name [:] type [NOT NULL] [COMMENT 'text']`.
func (p *parser) namedField() (arrow.Field, error) {
	t := p.next()
	if t.kind != tokWord && t.kind != tokQuoted {
		return arrow.Field{}, p.errAt(t, "expected a field name, found %s", t.describe())
	}
	if p.peek().is(":") {
		p.next()
	}
	return p.fieldRest(t.text)
}

// fieldRest reads the type and modifiers of a field whose name is known.
func (p *parser) fieldRest(name string) (arrow.Field, error) {
	typ, err := p.dataType()
	if err != nil {
		return arrow.Field{}, err
	}
	f := arrow.Field{Name: name, Type: typ, Nullable: true}
	seenNotNull, seenComment := false, false
	for {
		t := p.peek()
		switch {
		case t.isWord("NOT") && !seenNotNull:
			p.next()
			if n := p.next(); !n.isWord("NULL") {
				return arrow.Field{}, p.errAt(n, "expected NULL after NOT, found %s", n.describe())
			}
			f.Nullable = false
			seenNotNull = true
		case t.isWord("COMMENT") && !seenComment:
			p.next()
			s := p.next()
			if s.kind != tokString && !(s.kind == tokQuoted && s.quote == '"') {
				return arrow.Field{}, p.errAt(s, "expected a quoted comment after COMMENT, found %s", s.describe())
			}
			f.Metadata = arrow.NewMetadata([]string{CommentKey}, []string{s.text})
			seenComment = true
		default:
			return f, nil
		}
	}
}

var primitives = map[string]func() arrow.DataType{
	"BOOLEAN":       func() arrow.DataType { return arrow.FixedWidthTypes.Boolean },
	"BOOL":          func() arrow.DataType { return arrow.FixedWidthTypes.Boolean },
	"TINYINT":       func() arrow.DataType { return arrow.PrimitiveTypes.Int8 },
	"BYTE":          func() arrow.DataType { return arrow.PrimitiveTypes.Int8 },
	"SMALLINT":      func() arrow.DataType { return arrow.PrimitiveTypes.Int16 },
	"SHORT":         func() arrow.DataType { return arrow.PrimitiveTypes.Int16 },
	"INT":           func() arrow.DataType { return arrow.PrimitiveTypes.Int32 },
	"INTEGER":       func() arrow.DataType { return arrow.PrimitiveTypes.Int32 },
	"BIGINT":        func() arrow.DataType { return arrow.PrimitiveTypes.Int64 },
	"LONG":          func() arrow.DataType { return arrow.PrimitiveTypes.Int64 },
	"FLOAT":         func() arrow.DataType { return arrow.PrimitiveTypes.Float32 },
	"REAL":          func() arrow.DataType { return arrow.PrimitiveTypes.Float32 },
	"DOUBLE":        func() arrow.DataType { return arrow.PrimitiveTypes.Float64 },
	"DATE":          func() arrow.DataType { return arrow.FixedWidthTypes.Date32 },
	"TIMESTAMP":     func() arrow.DataType { return Timestamp() },
	"TIMESTAMP_LTZ": func() arrow.DataType { return Timestamp() },
	"TIMESTAMP_NTZ": func() arrow.DataType { return TimestampNTZ() },
	"STRING":        func() arrow.DataType { return arrow.BinaryTypes.String },
	"BINARY":        func() arrow.DataType { return arrow.BinaryTypes.Binary },
	"VARBINARY":     func() arrow.DataType { return arrow.BinaryTypes.Binary },
	"VOID":          func() arrow.DataType { return arrow.Null },
	"NULL":          func() arrow.DataType { return arrow.Null },
	"UNKNOWN":       func() arrow.DataType { return arrow.Null },
}

func (p *parser) dataType() (arrow.DataType, error) {
	t := p.next()
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxDepth {
		return nil, p.errAt(t, "types nested deeper than %d levels", maxDepth)
	}
	if t.kind != tokWord {
		return nil, p.errAt(t, "expected a type, found %s", t.describe())
	}
	name := strings.ToUpper(t.text)
	if mk, ok := primitives[name]; ok {
		return mk(), nil
	}
	switch name {
	case "DECIMAL", "DEC", "NUMERIC":
		return p.decimal(t)
	case "VARCHAR", "CHAR", "CHARACTER":
		if p.peek().is("(") {
			p.next()
			n := p.next()
			if v, err := strconv.Atoi(n.text); n.kind != tokNumber || err != nil || v < 1 {
				return nil, p.errAt(n, "expected a positive length for %s, found %s", name, n.describe())
			}
			if err := p.expect(")", "after the length"); err != nil {
				return nil, err
			}
		}
		return arrow.BinaryTypes.String, nil
	case "ARRAY":
		closer, err := p.open(t)
		if err != nil {
			return nil, err
		}
		elem, err := p.dataType()
		if err != nil {
			return nil, err
		}
		if err := p.expect(closer, "after the array element type"); err != nil {
			return nil, err
		}
		return ListOf(elem), nil
	case "MAP":
		closer, err := p.open(t)
		if err != nil {
			return nil, err
		}
		key, err := p.dataType()
		if err != nil {
			return nil, err
		}
		if err := p.expect(",", "after the map key type"); err != nil {
			return nil, err
		}
		val, err := p.dataType()
		if err != nil {
			return nil, err
		}
		if err := p.expect(closer, "after the map value type"); err != nil {
			return nil, err
		}
		return MapOf(key, val), nil
	case "STRUCT", "ROW":
		closer, err := p.open(t)
		if err != nil {
			return nil, err
		}
		return p.structFields(closer)
	}
	return nil, p.errAt(t, "unknown type %q", t.text)
}

// open reads the bracket after a container keyword: '<' (Spark) or '('
// (Velox), and returns the matching closer.
func (p *parser) open(kw token) (string, error) {
	t := p.next()
	switch {
	case t.is("<"):
		return ">", nil
	case t.is("("):
		return ")", nil
	}
	return "", p.errAt(t, "expected \"<\" or \"(\" after %s, found %s", strings.ToUpper(kw.text), t.describe())
}

// decimal reads the optional (precision[, scale]) after DECIMAL.
func (p *parser) decimal(kw token) (arrow.DataType, error) {
	if !p.peek().is("(") {
		return Decimal(DefaultDecimalPrecision, 0), nil
	}
	p.next()
	pt := p.next()
	prec, err := strconv.Atoi(pt.text)
	if pt.kind != tokNumber || err != nil || prec < 1 || prec > MaxDecimalPrecision {
		if pt.kind == tokNumber {
			return nil, p.errAt(pt, "decimal precision %s is out of range [1, %d]", pt.text, MaxDecimalPrecision)
		}
		return nil, p.errAt(pt, "expected the decimal precision, found %s", pt.describe())
	}
	scale := 0
	if p.peek().is(",") {
		p.next()
		st := p.next()
		s, err := strconv.Atoi(st.text)
		if st.kind != tokNumber || err != nil || s > prec {
			if st.kind == tokNumber {
				return nil, p.errAt(st, "decimal scale %s is out of range [0, %d]", st.text, prec)
			}
			return nil, p.errAt(st, "expected the decimal scale, found %s", st.describe())
		}
		scale = s
	}
	if err := p.expect(")", "after the decimal precision and scale"); err != nil {
		return nil, err
	}
	return Decimal(int32(prec), int32(scale)), nil
}

// structFields reads fields up to closer. In the '<' form every field is
// `name[:] type`; in the '(' form the name is optional and a missing one is
// c<index>, as Velox names them.
func (p *parser) structFields(closer string) (arrow.DataType, error) {
	var fields []arrow.Field
	if p.peek().is(closer) {
		p.next()
		return arrow.StructOf(), nil
	}
	seen := map[string]int{}
	for {
		var f arrow.Field
		var err error
		at := p.peek()
		if closer == ">" || p.fieldHasName() {
			f, err = p.namedField()
		} else {
			f, err = p.fieldRest("c" + strconv.Itoa(len(fields)))
		}
		if err != nil {
			return nil, err
		}
		if err := p.checkDuplicate(seen, fields, f.Name, at); err != nil {
			return nil, err
		}
		fields = append(fields, f)
		t := p.next()
		if t.is(closer) {
			return arrow.StructOf(fields...), nil
		}
		if !t.is(",") {
			return nil, p.errAt(t, "expected \",\" or %q after field %q, found %s", closer, f.Name, t.describe())
		}
	}
}

// fieldHasName decides, in a Velox field list, whether the next tokens are
// `name type` or just `type`: a name is quoted or followed by a word or ':'.
func (p *parser) fieldHasName() bool {
	t, n := p.peek(), p.peekAt(1)
	switch {
	case t.kind == tokQuoted:
		return true
	case t.kind != tokWord:
		return false
	case n.is(":"):
		return true
	case n.kind == tokWord:
		// `BIGINT NOT NULL` is a type with a modifier, not a field named BIGINT.
		return !(n.isWord("NOT") && p.peekAt(2).isWord("NULL")) && !(n.isWord("COMMENT") && p.peekAt(2).kind == tokString)
	}
	return false
}

// checkDuplicate fails if name repeats, ignoring case, one of fields (whose
// lower-case names seen indexes); at is the token where the field starts.
func (p *parser) checkDuplicate(seen map[string]int, fields []arrow.Field, name string, at token) error {
	key := strings.ToLower(name)
	if j, dup := seen[key]; dup {
		return p.errAt(at, "%s", duplicateMsg(name, fields[j].Name))
	}
	seen[key] = len(fields)
	return nil
}
