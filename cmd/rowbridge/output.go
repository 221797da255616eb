package main

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"unicode/utf8"
)

// output is where a command writes its result, buffered: stdout, or the
// file that -o names. A failing command leaves an existing file as it
// was: a regular file is written to a temporary file beside it, which
// replaces it only when the command succeeds.
type output struct {
	*passWriter
	f *os.File // the file written: nil for stdout
	// target is the regular file the temporary file f replaces on
	// success; "" when f is written in place (a device, a FIFO).
	target string
}

// isStdout reports whether the -o path means stdout: "" (no -o), "-", or
// a name of file descriptor 1. Opened by name, /dev/stdout would be the
// file the shell redirected stdout to opened anew: replaced, not appended
// to after >>, and not truncated after <>.
func isStdout(path string) bool {
	switch path {
	case "", "-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1":
		return true
	}
	return false
}

// maxLinks bounds the symbolic links followed to a file that does not
// exist yet, as the kernel bounds them (ELOOP).
const maxLinks = 40

// createOutput opens the destination path that the flag flagName (-o)
// names:
//   - stdout for "", "-" or a name of stdout (isStdout);
//   - for a regular file or a path that does not exist yet, a new
//     temporary file in the same folder, which finish renames over it on
//     success (with the mode and owner of the file it replaces) and
//     removes on failure;
//   - for anything else (a device such as /dev/null, a FIFO), the file
//     itself, written in place and never truncated or removed.
//
// A symbolic link is followed: the link stays and the file it points to
// is replaced.
//
// inputs are the paths of the command's input files ("" or "-" for
// stdin); an output that is one of them (by identity: through links, hard
// links and /dev/stdin too) is a usage error.
func createOutput(e *env, flagName, path string, inputs ...string) (*output, error) {
	what := flagName + " " + path // for messages: "-o out.arrow"
	if isStdout(path) {
		return &output{passWriter: newPassWriter(e.stdout)}, nil
	}
	fi, err := os.Stat(path)
	switch {
	case err == nil:
		if err := refuseInput(e, what, fi, inputs); err != nil {
			return nil, err
		}
		if fi.IsDir() {
			return nil, usagef("%s is a directory", what)
		}
		if !fi.Mode().IsRegular() {
			f, err := os.OpenFile(path, os.O_WRONLY, 0)
			if err != nil {
				return nil, err
			}
			return &output{passWriter: newPassWriter(f), f: f}, nil
		}
		target, err := filepath.EvalSymlinks(path)
		if err != nil {
			return nil, wrapf(err, "%s", what)
		}
		if tfi, err := os.Stat(target); err != nil || !os.SameFile(fi, tfi) {
			return nil, fmt.Errorf("%s: the link does not resolve to a path of the file (it resolves to %s)", what, target)
		}
		// A file the process may not write stays so, as with os.Create.
		f, err := os.OpenFile(target, os.O_WRONLY, 0)
		if err != nil {
			return nil, err
		}
		f.Close()
		return createTemp(what, target, fi)
	case errors.Is(err, fs.ErrNotExist):
		target, err := danglingTarget(what, path)
		if err != nil {
			return nil, err
		}
		return createTemp(what, target, nil)
	}
	return nil, err
}

// refuseInput returns a usage error if the output file fi (what) is
// one of the inputs. A character device (/dev/null) may be both.
func refuseInput(e *env, what string, fi fs.FileInfo, inputs []string) error {
	if fi.Mode()&fs.ModeCharDevice != 0 {
		return nil
	}
	for _, in := range inputs {
		var ifi fs.FileInfo
		var err error
		if in == "" || in == "-" {
			f, ok := e.stdin.(*os.File)
			if !ok {
				continue
			}
			in = "stdin"
			ifi, err = f.Stat()
		} else {
			ifi, err = os.Stat(in)
		}
		if err == nil && os.SameFile(fi, ifi) {
			return usagef("%s is the input %s; write the output to another file", what, in)
		}
	}
	return nil
}

// danglingTarget returns the path to create for a path that does not
// exist: the path itself, or, for a symbolic link to nothing, the path
// its links end at.
func danglingTarget(what, path string) (string, error) {
	for range maxLinks {
		fi, err := os.Lstat(path)
		if errors.Is(err, fs.ErrNotExist) {
			return path, nil
		}
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			return path, nil
		}
		link, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(link) {
			// Relative to the link's folder, resolved first so that ".."
			// in the link means what the kernel takes it to mean.
			dir, err := filepath.EvalSymlinks(filepath.Dir(path))
			if err != nil {
				return "", err
			}
			link = filepath.Join(dir, link)
		}
		path = link
	}
	return "", fmt.Errorf("%s: too many levels of symbolic links", what)
}

// createTemp creates the temporary file that replaces target on success,
// in target's folder (a rename within one file system is atomic): with the
// mode and, where it may, the owner of the existing file old, or, for a
// new file (old nil), as os.Create would create it (mode 0666 less the
// umask).
func createTemp(what, target string, old fs.FileInfo) (*output, error) {
	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	prefix := "." + shortName(base, 64) + ".rowbridge-"
	perm := fs.FileMode(0o666)
	if old != nil {
		perm = 0o600 // until it is old's
	}
	for range 100 {
		name := filepath.Join(dir, prefix+strconv.FormatUint(rand.Uint64(), 36)+".tmp")
		f, err := temps.create(name, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			return nil, fmt.Errorf("%s: cannot create a file in %s: %w", what, dir, err)
		}
		if old != nil {
			keepOwner(f, old) // first: a change of owner clears setuid bits
			if err := f.Chmod(old.Mode().Perm()); err != nil {
				f.Close()
				os.Remove(name)
				temps.done(name)
				return nil, err
			}
		}
		return &output{passWriter: newPassWriter(f), f: f, target: target}, nil
	}
	return nil, fmt.Errorf("%s: cannot create a file in %s: every name tried exists", what, dir)
}

// tempFiles are the temporary files of the outputs not finished yet,
// which an interrupt removes (see removeTempsOnSignal).
type tempFiles struct {
	sync.Mutex
	names map[string]bool
}

var temps = tempFiles{names: map[string]bool{}}

// create creates the temporary file name and records it in one step
// under the lock, so that an interrupt either comes first (and the file is
// never created: the handler holds the lock until the exit) or finds it
// recorded and removes it.
func (t *tempFiles) create(name string, perm fs.FileMode) (*os.File, error) {
	t.Lock()
	defer t.Unlock()
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
	if err == nil {
		t.names[name] = true
	}
	return f, err
}

func (t *tempFiles) done(name string) {
	t.Lock()
	delete(t.names, name)
	t.Unlock()
}

// removeTempsOnSignal makes an interrupt (SIGINT, SIGTERM) remove the
// temporary files before the process exits with 128 plus the signal's
// number, as a shell reports a process killed by it: the targets stay as
// they were.
func removeTempsOnSignal() {
	c := make(chan os.Signal, 1)
	signal.Notify(c, os.Interrupt, syscall.SIGTERM)
	go func() {
		sig := <-c
		temps.Lock() // held until the exit: no output is finished after this
		for name := range temps.names {
			os.Remove(name)
		}
		code := exitFailed
		if s, ok := sig.(syscall.Signal); ok {
			code = 128 + int(s)
		}
		os.Exit(code)
	}()
}

// shortName cuts name to at most n bytes, at a rune boundary.
func shortName(name string, n int) string {
	if len(name) <= n {
		return name
	}
	for n > 0 && !utf8.RuneStart(name[n]) {
		n--
	}
	return name[:n]
}

// finish completes the output after the command's work, which returned
// err, and returns the first error.
//
// On success a temporary file is flushed, synced to disk and renamed over
// its target. On failure it is removed and the target is left as it was.
// stdout and a file written in place (a FIFO, a device) get everything
// converted before the failure (the rows of a JSON lines stream up to the
// bad one, say), as a pipe reader would expect; they are never removed.
func (o *output) finish(err error) error {
	if o.f == nil || o.target == "" {
		if ferr := o.Flush(); err == nil {
			err = ferr
		}
		if o.f != nil {
			if cerr := o.f.Close(); err == nil {
				err = cerr
			}
		}
		return err
	}
	tmp := o.f.Name()
	if err == nil {
		err = o.Flush()
	}
	if err == nil {
		err = o.f.Sync()
	}
	if cerr := o.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, o.target)
	}
	if err != nil {
		if rerr := os.Remove(tmp); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
			err = errors.Join(err, rerr)
		}
	}
	temps.done(tmp)
	if err == nil {
		syncDir(filepath.Dir(o.target))
	}
	return err
}

// syncDir makes a rename in dir durable, where the system allows it.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}
