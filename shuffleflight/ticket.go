package shuffleflight

import (
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/flight"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Descriptor is the FlightDescriptor of shuffle id: PATH ["shuffle", "<id>"].
func Descriptor(id int) *flight.FlightDescriptor {
	return &flight.FlightDescriptor{Type: flight.DescriptorPATH, Path: []string{"shuffle", strconv.Itoa(id)}}
}

// parseDescriptor reads a descriptor of Descriptor's form; anything else is
// InvalidArgument.
func parseDescriptor(d *flight.FlightDescriptor) (int, error) {
	if d.GetType() != flight.DescriptorPATH {
		return 0, status.Errorf(codes.InvalidArgument, "descriptor type %v: want PATH [\"shuffle\", \"<id>\"]", d.GetType())
	}
	p := d.GetPath()
	if len(p) != 2 || p[0] != "shuffle" {
		return 0, status.Errorf(codes.InvalidArgument, "descriptor path %q: want [\"shuffle\", \"<id>\"]", p)
	}
	id, ok := parseID(p[1])
	if !ok {
		return 0, status.Errorf(codes.InvalidArgument, "descriptor path %q: %q is not a shuffle id", p, p[1])
	}
	return id, nil
}

// ticketPrefix starts every ticket. Tickets are opaque to clients; the
// form (prefix, shuffle id, "/", partition) may change with the prefix.
const ticketPrefix = "rowbridge-shuffle/1/"

func encodeTicket(shuffle, partition int) []byte {
	return []byte(ticketPrefix + strconv.Itoa(shuffle) + "/" + strconv.Itoa(partition))
}

// maxTicket bounds a ticket this server could have issued.
const maxTicket = len(ticketPrefix) + 2*20 + 1

// decodeTicket reads a ticket encodeTicket made; anything else is
// InvalidArgument.
func decodeTicket(t []byte) (shuffle, partition int, err error) {
	bad := func() error {
		return status.Errorf(codes.InvalidArgument, "invalid ticket (%d bytes): not one this server issued (get tickets from GetFlightInfo)", len(t))
	}
	if len(t) > maxTicket {
		return 0, 0, bad()
	}
	rest, ok := strings.CutPrefix(string(t), ticketPrefix)
	if !ok {
		return 0, 0, bad()
	}
	a, b, ok := strings.Cut(rest, "/")
	if !ok {
		return 0, 0, bad()
	}
	if shuffle, ok = parseID(a); !ok {
		return 0, 0, bad()
	}
	if partition, ok = parseID(b); !ok {
		return 0, 0, bad()
	}
	return shuffle, partition, nil
}

// parseID reads a non-negative decimal id in canonical form (no sign, no
// leading zeros), so that every id has one spelling.
func parseID(s string) (int, bool) {
	if s == "" || (len(s) > 1 && s[0] == '0') {
		return 0, false
	}
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	v, err := strconv.ParseInt(s, 10, 32)
	if err != nil {
		return 0, false
	}
	return int(v), true
}
