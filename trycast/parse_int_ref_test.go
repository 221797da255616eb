package trycast

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

// parseIntRef is the first, plainly written ParseInt (trim everything,
// then check the magnitude against the width at every digit). The fast
// ParseInt must give its answer for every string.
func parseIntRef(s []byte, bits int, d Dialect) (int64, bool) {
	if d == Presto {
		s = trimPresto(s)
	} else {
		s = trimClass(s, clsSparkTrim)
	}
	if len(s) == 0 {
		return 0, false
	}
	neg := false
	i := 0
	switch s[0] {
	case '-':
		neg = true
		i = 1
	case '+':
		i = 1
	}
	if i == len(s) {
		return 0, false
	}
	limit := uint64(1)<<(uint(bits)-1) - 1
	if neg {
		limit++
	}
	var mag uint64
	cut := limit / 10
	start := i
	for ; i < len(s); i++ {
		c := s[i] - '0'
		if c > 9 {
			break
		}
		if mag > cut {
			return 0, false
		}
		mag = mag*10 + uint64(c)
		if mag > limit {
			return 0, false
		}
	}
	digits := i - start
	if i < len(s) {
		if d != Spark || s[i] != '.' {
			return 0, false
		}
		for i++; i < len(s); i++ {
			if !isDigit(s[i]) {
				return 0, false
			}
		}
	} else if digits == 0 {
		return 0, false
	}
	if neg {
		return -int64(mag), true
	}
	return int64(mag), true
}

func checkParseIntRef(t *testing.T, s []byte) {
	t.Helper()
	for _, w := range []int{8, 16, 32, 64} {
		for d := Presto; d <= SparkANSI; d++ {
			v, ok := ParseInt(s, w, d)
			rv, rok := parseIntRef(s, w, d)
			if ok != rok || v != rv {
				t.Fatalf("%v ParseInt(%q, %d) = (%d, %v), reference (%d, %v)", d, s, w, v, ok, rv, rok)
			}
		}
	}
}

// TestParseIntMatchesReference compares ParseInt with parseIntRef on every
// one- and two-byte string, digit strings around each width's bounds and
// random strings over the bytes that matter (digits, signs, '.', trimmed
// bytes, UTF-8 spaces).
func TestParseIntMatchesReference(t *testing.T) {
	for a := 0; a < 256; a++ {
		checkParseIntRef(t, []byte{byte(a)})
		for b := 0; b < 256; b++ {
			checkParseIntRef(t, []byte{byte(a), byte(b)})
		}
	}
	for _, s := range []string{"127", "128", "-128", "-129", "255", "256", "32767", "32768", "-32768", "-32769",
		"2147483647", "2147483648", "-2147483648", "-2147483649", "4294967296",
		"9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
		"999999999999999999", "1000000000000000000", "9999999999999999999", "10000000000000000000",
		"18446744073709551615", "18446744073709551616", "99999999999999999999", "00000000000000000000000042",
		"-00000000000000000009223372036854775808", "0000000000000000000000000000000000000.5", "12345678", "123456789"} {
		checkParseIntRef(t, []byte(s))
		checkParseIntRef(t, []byte(" "+s+"\t"))
		checkParseIntRef(t, []byte(s+".9"))
	}
	alphabet := [][]byte{{'0'}, {'1'}, {'5'}, {'9'}, {'-'}, {'+'}, {'.'}, {' '}, {0}, {0x7f}, {'\t'}, {'a'}, {'$'},
		[]byte("\u00a0"), []byte("\u3000"), []byte("\u2000"), []byte("\u0663"), {0xff}, {0xc2}}
	r := rand.New(rand.NewPCG(1, 2))
	var buf []byte
	for range 200_000 {
		buf = buf[:0]
		for n := r.IntN(24); n > 0; n-- {
			// Digits most of the time, so long numbers occur.
			if r.IntN(3) > 0 {
				buf = append(buf, byte('0'+r.IntN(10)))
				continue
			}
			buf = append(buf, alphabet[r.IntN(len(alphabet))]...)
		}
		checkParseIntRef(t, buf)
	}
}

// FuzzParseIntReference holds ParseInt to parseIntRef on arbitrary bytes.
func FuzzParseIntReference(f *testing.F) {
	for _, s := range []string{"0", " -12 ", "12.5", "\u00a042", "99999999999999999999", "-.", "\x7f1\x00"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) { checkParseIntRef(t, b) })
}

// TestDigitWord puts every byte value at every position of every length,
// over every byte value in the ignored part of the word.
func TestDigitWord(t *testing.T) {
	for n := 1; n <= 8; n++ {
		for p := 0; p < n; p++ {
			for b := 0; b < 256; b++ {
				s := []byte("98765432"[:n])
				s[p] = byte(b)
				want, wantOK := uint64(0), true
				for _, c := range s {
					if c < '0' || c > '9' {
						wantOK = false
						break
					}
					want = want*10 + uint64(c-'0')
				}
				var w [8]byte
				for i := range 8 - n {
					w[i] = byte(b + 37*i) // garbage below the string
				}
				copy(w[8-n:], s)
				got, ok := digitWord(binary.LittleEndian.Uint64(w[:]), n)
				if ok != wantOK || (ok && got != want) {
					t.Fatalf("digitWord(%q, garbage %x) = %d, %v; want %d, %v", s, w[:8-n], got, ok, want, wantOK)
				}
				if g, ok := digitWord(gatherWord(s), n); ok != wantOK || (ok && g != want) {
					t.Fatalf("digitWord(gatherWord(%q)) = %d, %v; want %d, %v", s, g, ok, want, wantOK)
				}
			}
		}
	}
}
