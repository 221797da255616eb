//go:build !linux

package main

import "os"

// maxRSSKiB has no figure to give off Linux (ru_maxrss is bytes on some
// systems, KiB on others); -1 says so.
func maxRSSKiB(*os.ProcessState) int64 { return -1 }
