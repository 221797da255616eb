package trycast

import "unicode/utf8"

// Each engine trims a different set of bytes before parsing, and the set
// also depends on the target type, so the classes are kept as bit flags in
// one table.
const (
	clsCSpace     = 1 << iota // C isspace: ' ', \t \n \v \f \r (Velox float/date/timestamp)
	clsPrestoTrim             // 0x01..0x20 (Velox trimWhiteSpace, ASCII part)
	clsSparkTrim              // 0x00..0x20 and 0x7F (Java isWhitespace||isISOControl, per byte)
	clsJavaTrim               // 0x00..0x20 (java.lang.String.trim)
	clsDigit                  // '0'..'9'
	clsPrestoEdge             // 0x01..0x20 and every non-ASCII byte: where trimPresto may trim
	clsNotInt                 // printable ASCII no dialect trims and no integer starts with
	clsNotFloat               // printable ASCII that is no part of a float's text after a digit (see floatEnd)
)

var byteClass = func() (t [256]uint8) {
	for c := 0; c < 256; c++ {
		var f uint8
		if c == ' ' || (c >= '\t' && c <= '\r') {
			f |= clsCSpace
		}
		if c >= 1 && c <= ' ' {
			f |= clsPrestoTrim
		}
		if c <= ' ' || c == 0x7f {
			f |= clsSparkTrim
		}
		if c <= ' ' {
			f |= clsJavaTrim
		}
		if c >= '0' && c <= '9' {
			f |= clsDigit
		}
		if (c >= 1 && c <= ' ') || c >= utf8.RuneSelf {
			f |= clsPrestoEdge
		}
		if c > ' ' && c < 0x7f && (c < '0' || c > '9') && c != '+' && c != '-' && c != '.' {
			f |= clsNotInt
			switch c | 0x20 {
			case 'e', 'f', 'd', 'x':
			default:
				f |= clsNotFloat
			}
		}
		t[c] = f
	}
	return t
}()

// trimClass removes leading and trailing bytes of the given class.
func trimClass(s []byte, cls uint8) []byte {
	i, j := 0, len(s)
	for i < j && byteClass[s[i]]&cls != 0 {
		i++
	}
	for j > i && byteClass[s[j-1]]&cls != 0 {
		j--
	}
	return s[i:j]
}

// isUnicodeSpace reports the non-ASCII code points Velox treats as
// whitespace when trimming strings cast to integers.
func isUnicodeSpace(r rune) bool {
	switch {
	case r == 0x85, r == 0xA0, r == 0x1680, r >= 0x2000 && r <= 0x200A,
		r == 0x2028, r == 0x2029, r == 0x202F, r == 0x205F, r == 0x3000:
		return true
	}
	return false
}

// trimPresto trims like Velox's trimWhiteSpace: ASCII 0x01..0x20 plus
// Unicode whitespace; NUL is kept.
func trimPresto(s []byte) []byte {
	i, j := 0, len(s)
	for i < j {
		c := s[i]
		if c < utf8.RuneSelf {
			if byteClass[c]&clsPrestoTrim == 0 {
				break
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(s[i:j])
		if !isUnicodeSpace(r) {
			break
		}
		i += n
	}
	for j > i {
		c := s[j-1]
		if c < utf8.RuneSelf {
			if byteClass[c]&clsPrestoTrim == 0 {
				break
			}
			j--
			continue
		}
		r, n := utf8.DecodeLastRune(s[i:j])
		if !isUnicodeSpace(r) {
			break
		}
		j -= n
	}
	return s[i:j]
}

func isDigit(c byte) bool { return c-'0' < 10 }

// lower folds an ASCII letter to lower case.
func lower(c byte) byte {
	if c-'A' < 26 {
		return c + ('a' - 'A')
	}
	return c
}

// equalFold reports whether s equals the lower-case ASCII word w, ignoring case.
func equalFold(s []byte, w string) bool {
	if len(s) != len(w) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if lower(s[i]) != w[i] {
			return false
		}
	}
	return true
}
