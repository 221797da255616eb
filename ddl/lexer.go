package ddl

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

type tokenKind int

const (
	tokEOF    tokenKind = iota
	tokWord             // identifier or keyword: letters, digits, '_'
	tokNumber           // a word made only of ASCII digits
	tokQuoted           // `name` or "name"
	tokString           // 'text'
	tokPunct            // one of ( ) < > , :
)

type token struct {
	kind  tokenKind
	text  string // the word, the unquoted name or string, or the punctuation
	quote byte   // for tokQuoted: '`' or '"'
	pos   int    // 1-based rune position of the first character
}

func (t token) is(punct string) bool { return t.kind == tokPunct && t.text == punct }

// isWord reports whether t is the keyword w (case-insensitive).
func (t token) isWord(w string) bool { return t.kind == tokWord && strings.EqualFold(t.text, w) }

func (t token) describe() string {
	switch t.kind {
	case tokEOF:
		return "end of input"
	case tokQuoted:
		return "quoted name " + string(t.quote) + t.text + string(t.quote)
	case tokString:
		return "string '" + t.text + "'"
	default:
		return "\"" + t.text + "\""
	}
}

// lex splits the whole input up front; schemas are short.
func lex(input string) ([]token, error) {
	var toks []token
	pos := 1 // rune position of input[i]
	for i := 0; i < len(input); {
		r, size := utf8.DecodeRuneInString(input[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			return nil, &SyntaxError{Input: input, Pos: pos, Msg: "invalid UTF-8"}
		case unicode.IsSpace(r):
			i += size
			pos++
		case isWordRune(r):
			start, startPos := i, pos
			for i < len(input) {
				r, size := utf8.DecodeRuneInString(input[i:])
				if !isWordRune(r) {
					break
				}
				i += size
				pos++
			}
			w := input[start:i]
			kind := tokWord
			if allDigits(w) {
				kind = tokNumber
			}
			toks = append(toks, token{kind: kind, text: w, pos: startPos})
		case strings.ContainsRune("()<>,:", r):
			toks = append(toks, token{kind: tokPunct, text: string(r), pos: pos})
			i += size
			pos++
		case r == '`' || r == '"':
			t, n, runes, err := lexQuotedName(input, i, pos, byte(r))
			if err != nil {
				return nil, err
			}
			toks = append(toks, t)
			i += n
			pos += runes
		case r == '\'':
			t, n, runes, err := lexString(input, i, pos)
			if err != nil {
				return nil, err
			}
			toks = append(toks, t)
			i += n
			pos += runes
		default:
			return nil, &SyntaxError{Input: input, Pos: pos, Msg: "unexpected character " + quoteRune(r)}
		}
	}
	toks = append(toks, token{kind: tokEOF, pos: pos})
	return toks, nil
}

func isWordRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func quoteRune(r rune) string {
	if unicode.IsPrint(r) {
		return "'" + string(r) + "'"
	}
	return fmt.Sprintf("%U", r)
}

// lexQuotedName reads a name in backquotes or double quotes starting at
// input[i]; a doubled quote character stands for itself. It returns the
// token, the bytes and the runes consumed.
func lexQuotedName(input string, i, pos int, q byte) (token, int, int, error) {
	var b strings.Builder
	j := i + 1
	runes := 1
	for j < len(input) {
		c := input[j]
		if c == q {
			if j+1 < len(input) && input[j+1] == q {
				b.WriteByte(q)
				j += 2
				runes += 2
				continue
			}
			return token{kind: tokQuoted, text: b.String(), quote: q, pos: pos}, j + 1 - i, runes + 1, nil
		}
		r, size := utf8.DecodeRuneInString(input[j:])
		if r == utf8.RuneError && size == 1 {
			return token{}, 0, 0, &SyntaxError{Input: input, Pos: pos + runes, Msg: "invalid UTF-8"}
		}
		b.WriteString(input[j : j+size])
		j += size
		runes++
	}
	return token{}, 0, 0, &SyntaxError{Input: input, Pos: pos, Msg: "unterminated quoted name"}
}

// lexString reads a single-quoted string with backslash escapes (Spark's
// rule for COMMENT text).
func lexString(input string, i, pos int) (token, int, int, error) {
	var b strings.Builder
	j := i + 1
	runes := 1
	for j < len(input) {
		c := input[j]
		switch c {
		case '\'':
			return token{kind: tokString, text: b.String(), pos: pos}, j + 1 - i, runes + 1, nil
		case '\\':
			if j+1 >= len(input) {
				j++
				continue
			}
			r, size := utf8.DecodeRuneInString(input[j+1:])
			switch r {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case '0':
				b.WriteByte(0)
			default:
				if r == utf8.RuneError && size == 1 {
					return token{}, 0, 0, &SyntaxError{Input: input, Pos: pos + runes + 1, Msg: "invalid UTF-8"}
				}
				b.WriteString(input[j+1 : j+1+size])
			}
			j += 1 + size
			runes += 2
			continue
		}
		r, size := utf8.DecodeRuneInString(input[j:])
		if r == utf8.RuneError && size == 1 {
			return token{}, 0, 0, &SyntaxError{Input: input, Pos: pos + runes, Msg: "invalid UTF-8"}
		}
		b.WriteString(input[j : j+size])
		j += size
		runes++
	}
	return token{}, 0, 0, &SyntaxError{Input: input, Pos: pos, Msg: "unterminated string"}
}
