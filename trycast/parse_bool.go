package trycast

// ParseBool parses s as a boolean the way dialect d casts a string to
// boolean. Presto accepts t/true/1 and f/false/0 in any case, without
// trimming; Spark (both modes) trims 0x00..0x20 and 0x7F and also accepts
// y/yes and n/no.
func ParseBool(s []byte, d Dialect) (v bool, ok bool) {
	if d != Presto {
		s = trimClass(s, clsSparkTrim)
	}
	switch len(s) {
	case 1:
		switch lower(s[0]) {
		case 't', '1':
			return true, true
		case 'f', '0':
			return false, true
		case 'y':
			return true, d != Presto
		case 'n':
			return false, d != Presto
		}
	case 2:
		if d != Presto && equalFold(s, "no") {
			return false, true
		}
	case 3:
		if d != Presto && equalFold(s, "yes") {
			return true, true
		}
	case 4:
		if equalFold(s, "true") {
			return true, true
		}
	case 5:
		if equalFold(s, "false") {
			return false, true
		}
	}
	return false, false
}
