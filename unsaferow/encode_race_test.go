//go:build race

package unsaferow

// encRaceEnabled: the race detector makes sync.Pool drop items, so
// allocation counts are not meaningful.
const encRaceEnabled = true
