//go:build !race

package unsaferow

const encRaceEnabled = false
