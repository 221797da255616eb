package main

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

// A device named by -o (here a null device of the test's own, so that a
// regression removes that and not /dev/null) is written in place and stays
// after a failure. Creating the device needs root (CAP_MKNOD).
func TestOutputDeviceStays(t *testing.T) {
	dir := t.TempDir()
	dev := filepath.Join(dir, "null")
	const nullDevice = 1<<8 | 3 // major 1, minor 3: /dev/null's, in Linux's encoding
	if err := syscall.Mknod(dev, syscall.S_IFCHR|0o666, nullDevice); err != nil {
		t.Skipf("cannot create a device node: %v", err)
	}
	if f, err := os.OpenFile(dev, os.O_WRONLY, 0); err != nil {
		t.Skipf("cannot write to a device node here: %v", err)
	} else {
		f.Close()
	}
	for _, args := range [][]string{badDecode(dev), {"encode", "--format", "unsaferow", "-o", dev}} {
		_, stderr, code := cli(t, truncatedRows, args...)
		require.NotEqual(t, 0, code, stderr) // 2 for encode: rows are not Arrow
		fi, err := os.Lstat(dev)
		require.NoError(t, err, "the device is still there")
		require.True(t, fi.Mode()&os.ModeCharDevice != 0, "still a character device: %v", fi.Mode())
		require.Equal(t, []string{"null"}, dirNames(t, dir))
	}
	_, stderr, code := cli(t, sampleRows, goodDecode(dev)...)
	require.Equal(t, 0, code, stderr)
	fi, err := os.Lstat(dev)
	require.NoError(t, err)
	require.True(t, fi.Mode()&os.ModeCharDevice != 0)
}
