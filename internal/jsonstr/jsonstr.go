// Package jsonstr writes JSON strings, in the two ways rowbridge's outputs
// need: as Spark's Jackson writes a schema's names (ddl.FormatJSON), and as
// always-valid JSON text for values of any bytes (the CLI's JSON lines).
package jsonstr

import "unicode/utf8"

// Mode says how control characters and bytes that are not UTF-8 are
// written. Both escape '"', '\\', '\n', '\r' and '\t' with a backslash,
// the other bytes below 0x20 as \u00XX (lower-case hex), and write every
// other valid character as it is (no HTML or U+2028 escapes).
type Mode uint8

const (
	// Jackson writes as Spark's Jackson does: '\b' and '\f' as \b and \f;
	// bytes are otherwise copied as they are, UTF-8 or not (Spark's
	// strings are always UTF-8).
	Jackson Mode = iota
	// ValidUTF8 writes '\b' and '\f' as \u0008 and \u000c, and each byte
	// that does not start a valid UTF-8 sequence as \ufffd, so the output
	// is valid JSON text whatever s holds.
	ValidUTF8
)

const hex = "0123456789abcdef"

// Append appends s to dst as a quoted JSON string written in mode m.
func Append(dst []byte, s string, m Mode) []byte {
	dst = append(dst, '"')
	start := 0 // s[start:i] is still to be copied as it is
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			if m == ValidUTF8 {
				if r, size := utf8.DecodeRuneInString(s[i:]); r == utf8.RuneError && size == 1 {
					dst = append(append(dst, s[start:i]...), `\ufffd`...)
					i++
					start = i
				} else {
					i += size
				}
				continue
			}
			i++
			continue
		}
		if c >= 0x20 && c != '"' && c != '\\' {
			i++
			continue
		}
		dst = append(dst, s[start:i]...)
		switch c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		case '\b':
			dst = appendControl(dst, c, 'b', m)
		case '\f':
			dst = appendControl(dst, c, 'f', m)
		default:
			dst = appendControl(dst, c, 0, m)
		}
		i++
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// appendControl writes control character c as \short in Jackson mode when
// it has one, otherwise as \u00XX.
func appendControl(dst []byte, c, short byte, m Mode) []byte {
	if short != 0 && m == Jackson {
		return append(dst, '\\', short)
	}
	return append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
}
