package trycast

import "encoding/binary"

// The date settle loop reads YYYY-MM-DD as two loads: the 2 bytes of the
// century and the 8 bytes after them. The 8 digits are gathered into one
// word, checked at once and converted two at a time (digitWord's steps),
// and the day number comes from a year shifted to be positive, so that
// every division is an unsigned one by a constant. ParseDate, which the
// tests hold every settled row to, remains the definition.

// dateWord gathers the 8 digits of v (10 bytes) read as YYYY-MM-DD into
// one word, YYYYMMDD with Y in the lowest byte, false when v does not
// have that shape with digits in every other place.
func dateWord(v []byte) (uint64, bool) {
	w := binary.LittleEndian.Uint64(v[2:10]) // YY-MM-DD
	x := uint64(binary.LittleEndian.Uint16(v[0:2])) | w&0xffff<<16 | w>>24&0xffff<<32 | w>>48<<48
	return x, notDigits(x) == 0 && w&0x0000ff0000ff0000 == 0x00002d00002d0000
}

// dateParts is the year, month and day of a word from dateWord.
func dateParts(x uint64) (y, m, d uint64) {
	t := x - 0x3030303030303030
	t = t*10 + t>>8 // the low byte of each 16-bit lane: its two digits' value
	return t&0xff*100 + t>>16&0xff, t >> 32 & 0xff, t >> 48 & 0xff
}

// civilDays is the day number of a valid date of a year 0..9999:
// daysFromCivil's sum with the year moved up 400 years (146097 days) so
// that it stays positive when January and February count in the year
// before; yy/400 is yy/100/4.
//
// January and February take the year before without a branch (m-3 wraps
// for m < 3, and its top bit is then set): random months would mispredict
// one.
func civilDays(y, m, d uint64) int32 {
	yy := y + 400 - (m-3)>>63
	c := yy / 100
	days := 365*yy + yy/4 - c + c/4 + uint64(marchDays[m&15]) + d
	return int32(int64(days) - (1 + 719468 + 146097))
}

// dateOK reports whether month m and day d exist in year y (0..9999);
// the leap rule is tested only for February 29.
func dateOK(y, m, d uint64) bool {
	if m-1 >= 12 || d-1 >= uint64(monthDays[m&15]) {
		return m == 2 && d == 29 && y%4 == 0 && (y%100 != 0 || y%16 == 0) // y%400: y%100 and y%16 both 0
	}
	return true
}

// marchDays[m] is the days from March 1 to the first of month m in a
// year that starts in March ((153*mp+2)/5, mp = (m+9)%12); monthDays[m]
// is the length of month m outside leap years (0 past 12). Both have 16
// entries so that an index masked by 15 needs no bounds check.
var (
	marchDays = [16]uint16{0, 306, 337, 0, 31, 61, 92, 122, 153, 184, 214, 245, 275}
	monthDays = [16]uint8{0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}
)
