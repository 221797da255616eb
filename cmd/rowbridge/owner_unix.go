//go:build unix

package main

import (
	"io/fs"
	"os"
	"syscall"
)

// keepOwner gives f the owner and group of the file fi that it replaces,
// where the process may (root may; others may keep their own files'
// groups). Failing that, f keeps the process's.
func keepOwner(f *os.File, fi fs.FileInfo) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		_ = f.Chown(int(st.Uid), int(st.Gid))
	}
}
