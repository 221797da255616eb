package jsonstr

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAppendPinsBothModes pins the exact bytes of each mode: Jackson's is
// what ddl.FormatJSON printed (Spark's own), ValidUTF8's what the CLI's
// JSON lines printed.
func TestAppendPinsBothModes(t *testing.T) {
	for _, tc := range []struct {
		in, jackson, valid string
	}{
		{"", `""`, `""`},
		{"plain name", `"plain name"`, `"plain name"`},
		{`a"b\c`, `"a\"b\\c"`, `"a\"b\\c"`},
		{"\n\r\t", `"\n\r\t"`, `"\n\r\t"`},
		{"\b\f", `"\b\f"`, `"\u0008\u000c"`},
		{"\x00\x01\x1f\x7f", `"\u0000\u0001\u001f` + "\x7f\"", `"\u0000\u0001\u001f` + "\x7f\""},
		{"é€😀", `"é€😀"`, `"é€😀"`},
		{"\ufffd", "\"\ufffd\"", "\"\ufffd\""},
		{"</script>\u2028", "\"</script>\u2028\"", "\"</script>\u2028\""},
		{"a\xffb", "\"a\xffb\"", `"a\ufffdb"`},
		{"\xe2\x82", "\"\xe2\x82\"", `"\ufffd\ufffd"`},
		{"\xed\xa0\x80x", "\"\xed\xa0\x80x\"", `"\ufffd\ufffd\ufffdx"`},
		{"x\xc3", "\"x\xc3\"", `"x\ufffd"`},
	} {
		assert.Equal(t, tc.jackson, string(Append(nil, tc.in, Jackson)), "Jackson %q", tc.in)
		assert.Equal(t, tc.valid, string(Append(nil, tc.in, ValidUTF8)), "ValidUTF8 %q", tc.in)
	}
	assert.Equal(t, `x:"q"`, string(Append([]byte("x:"), "q", Jackson)), "appends to dst")
}

// TestAppendReadsBack: on random strings of ASCII, control characters,
// multi-byte characters and stray bytes, ValidUTF8 output is valid JSON
// that reads back as the input with each bad byte replaced by U+FFFD, and
// Jackson output of valid UTF-8 reads back as the input.
func TestAppendReadsBack(t *testing.T) {
	pieces := []string{"a", "Z", " ", `"`, `\`, "\n", "\b", "\f", "\x00", "\x1f", "\x7f", "é", "€", "😀", "\ufffd", "\xff", "\xc3", "\xe2\x82", "\xed\xa0\x80"}
	r := rand.New(rand.NewPCG(7, 8))
	for range 2000 {
		var b strings.Builder
		for range r.IntN(12) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		s := b.String()
		out := Append(nil, s, ValidUTF8)
		require.True(t, json.Valid(out), "%q -> %q", s, out)
		var back string
		require.NoError(t, json.Unmarshal(out, &back))
		require.Equal(t, replaceBadBytes(s), back, "%q", s)
		if utf8.ValidString(s) {
			out := Append(nil, s, Jackson)
			require.NoError(t, json.Unmarshal(out, &back), "%q -> %q", s, out)
			require.Equal(t, s, back)
		}
	}
}

// replaceBadBytes replaces each byte that does not start a valid UTF-8
// sequence by U+FFFD.
func replaceBadBytes(s string) string {
	var b strings.Builder
	for _, r := range s { // a bad byte ranges as one RuneError
		b.WriteRune(r)
	}
	return b.String()
}
