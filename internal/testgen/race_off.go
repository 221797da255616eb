//go:build !race

package testgen

// RaceEnabled reports a -race build. The race detector makes sync.Pool drop
// items at random, so allocation counts are not meaningful under it.
const RaceEnabled = false
