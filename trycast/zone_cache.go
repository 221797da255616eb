package trycast

import (
	"time"

	"github.com/rowbridge/rowbridge/internal/zonecache"
)

// loadZone resolves a zone name read from a timestamp string through
// rowbridge's one zone cache (internal/zonecache), without a lock or an
// allocation for a name seen before.
func loadZone(name []byte) (*time.Location, bool) { return zonecache.FromText(name) }
