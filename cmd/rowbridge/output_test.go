package main

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"
)

// badDecode is a decode that fails after some rows (the input is cut
// inside the fifth row).
func badDecode(out string) []string {
	return []string{"decode", "--format", "unsaferow", sampleSchemaFlag, "--batch-rows", "1", "--to", "jsonl", "-o", out}
}

func goodDecode(out string) []string {
	return []string{"decode", "--format", "unsaferow", sampleSchemaFlag, "--to", "jsonl", "-o", out}
}

var truncatedRows = sampleRows[:len(sampleRows)-10]

// dirNames lists dir's entries: a stray temporary file shows up here.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	return names
}

func writeFile(t *testing.T, path, data string, perm os.FileMode) {
	t.Helper()
	require.NoError(t, os.WriteFile(path, []byte(data), perm))
	require.NoError(t, os.Chmod(path, perm)) // whatever the umask
}

func requireFile(t *testing.T, path, data string, perm os.FileMode) {
	t.Helper()
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, data, string(got))
	fi, err := os.Stat(path)
	require.NoError(t, err)
	require.Equal(t, perm, fi.Mode().Perm())
}

// A failing command leaves an existing -o file byte for byte as it was,
// and no temporary file beside it.
func TestFailedOutputKeepsExistingFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.jsonl")
	writeFile(t, path, "keep\n", 0o640)
	_, stderr, code := cli(t, truncatedRows, badDecode(path)...)
	require.Equal(t, 1, code, stderr)
	requireStderrLine(t, stderr, "rowbridge decode: framing: stream byte 664, after 4 rows read: row of 96 bytes has only 86: truncated input")
	requireFile(t, path, "keep\n", 0o640)
	require.Equal(t, []string{"x.jsonl"}, dirNames(t, dir))
}

// A successful command replaces an existing file, keeping its mode, and
// creates a new one as os.Create would; no temporary file is left.
func TestOutputReplacesOnSuccess(t *testing.T) {
	want := string(readTestdata(t, "sample.jsonl"))
	dir := t.TempDir()
	path := filepath.Join(dir, "x.jsonl")
	writeFile(t, path, "old\n", 0o640)
	_, stderr, code := cli(t, sampleRows, goodDecode(path)...)
	require.Equal(t, 0, code, stderr)
	requireFile(t, path, want, 0o640)

	fresh := filepath.Join(dir, "new.jsonl")
	_, stderr, code = cli(t, sampleRows, goodDecode(fresh)...)
	require.Equal(t, 0, code, stderr)
	probe := filepath.Join(dir, "probe")
	f, err := os.Create(probe)
	require.NoError(t, err)
	require.NoError(t, f.Close())
	fi, err := os.Stat(probe)
	require.NoError(t, err)
	requireFile(t, fresh, want, fi.Mode().Perm())
	require.NoError(t, os.Remove(probe))
	require.Equal(t, []string{"new.jsonl", "x.jsonl"}, dirNames(t, dir))
}

// -o through a symbolic link replaces the file it points to on success
// and leaves both as they were on failure.
func TestOutputThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "data", "real.jsonl")
	require.NoError(t, os.Mkdir(filepath.Dir(real), 0o755))
	writeFile(t, real, "keep\n", 0o600)
	link := filepath.Join(dir, "link.jsonl")
	require.NoError(t, os.Symlink(filepath.Join("data", "real.jsonl"), link))
	requireLink := func() {
		t.Helper()
		target, err := os.Readlink(link)
		require.NoError(t, err, "the link is still a link")
		require.Equal(t, filepath.Join("data", "real.jsonl"), target)
		require.Equal(t, []string{"data", "link.jsonl"}, dirNames(t, dir))
		require.Equal(t, []string{"real.jsonl"}, dirNames(t, filepath.Dir(real)))
	}

	_, stderr, code := cli(t, truncatedRows, badDecode(link)...)
	require.Equal(t, 1, code, stderr)
	requireLink()
	requireFile(t, real, "keep\n", 0o600)

	_, stderr, code = cli(t, sampleRows, goodDecode(link)...)
	require.Equal(t, 0, code, stderr)
	requireLink()
	requireFile(t, real, string(readTestdata(t, "sample.jsonl")), 0o600)

	// A link to a file not there yet: the file is created, the link kept.
	dangling := filepath.Join(dir, "dangling.jsonl")
	require.NoError(t, os.Symlink(filepath.Join("data", "later.jsonl"), dangling))
	_, stderr, code = cli(t, truncatedRows, badDecode(dangling)...)
	require.Equal(t, 1, code, stderr)
	require.Equal(t, []string{"real.jsonl"}, dirNames(t, filepath.Dir(real)))
	_, stderr, code = cli(t, sampleRows, goodDecode(dangling)...)
	require.Equal(t, 0, code, stderr)
	got, err := os.ReadFile(filepath.Join(dir, "data", "later.jsonl"))
	require.NoError(t, err)
	require.Equal(t, readTestdata(t, "sample.jsonl"), got)
	fi, err := os.Lstat(dangling)
	require.NoError(t, err)
	require.True(t, fi.Mode()&os.ModeSymlink != 0, "still a link")
}

// -o naming the input, by its path, a link, a hard link or as stdin, is
// a usage error that leaves the file as it was.
func TestOutputNamingInputIsRefused(t *testing.T) {
	dir := t.TempDir()
	self := filepath.Join(dir, "self.arrow")
	data := arrowInputFile(t, arrowInputRows)
	require.NoError(t, os.WriteFile(self, data, 0o644))
	link := filepath.Join(dir, "link.arrow")
	require.NoError(t, os.Symlink("self.arrow", link))
	hard := filepath.Join(dir, "hard.arrow")
	require.NoError(t, os.Link(self, hard))

	for _, tc := range []struct{ name, out, in string }{
		{"same path", self, self},
		{"symlink out", link, self},
		{"symlink in", self, link},
		{"hard link", hard, self},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, stderr, code := cli(t, nil, "encode", "--format", "unsaferow", "-o", tc.out, tc.in)
			require.Equal(t, 2, code, stderr)
			requireStderrLine(t, stderr, "rowbridge encode: -o "+tc.out+" is the input "+tc.in+"; write the output to another file (see 'rowbridge encode -h')")
			require.Empty(t, out)
			got, err := os.ReadFile(self)
			require.NoError(t, err)
			require.Equal(t, data, got)
			require.Equal(t, []string{"hard.arrow", "link.arrow", "self.arrow"}, dirNames(t, dir))
		})
	}

	t.Run("stdin", func(t *testing.T) {
		in, err := os.Open(self)
		require.NoError(t, err)
		defer in.Close()
		var out, errOut bytes.Buffer
		code := run([]string{"encode", "--format", "unsaferow", "-o", self}, in, &out, &errOut)
		require.Equal(t, 2, code, errOut.String())
		requireStderrLine(t, errOut.String(), "rowbridge encode: -o "+self+" is the input stdin; write the output to another file (see 'rowbridge encode -h')")
		got, err := os.ReadFile(self)
		require.NoError(t, err)
		require.Equal(t, data, got)
	})
}

func TestOutputDirectoryIsRefused(t *testing.T) {
	dir := t.TempDir()
	_, stderr, code := cli(t, sampleRows, goodDecode(dir)...)
	require.Equal(t, 2, code, stderr)
	requireStderrLine(t, stderr, "rowbridge decode: -o "+dir+" is a directory (see 'rowbridge decode -h')")
	require.Empty(t, dirNames(t, dir))
}

// A file the process may not write is not replaced either.
func TestOutputReadOnlyFileIsNotReplaced(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root may write any file")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "x.jsonl")
	writeFile(t, path, "keep\n", 0o444)
	_, stderr, code := cli(t, sampleRows, goodDecode(path)...)
	require.Equal(t, 1, code, stderr)
	requireStderrLine(t, stderr, "rowbridge decode: open "+path+": permission denied")
	requireFile(t, path, "keep\n", 0o444)
	require.Equal(t, []string{"x.jsonl"}, dirNames(t, dir))
}
