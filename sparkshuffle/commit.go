package sparkshuffle

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// writableAlgorithms are the algorithms whose checksum files a map output
// may have.
var writableAlgorithms = []Algorithm{Adler32, CRC32, CRC32C}

// outputNames are the names of every file map output shuffle/mapID may
// have: index, data, then a checksum file per algorithm.
func outputNames(shuffle int, mapID int64) []string {
	names := []string{IndexName(shuffle, mapID), DataName(shuffle, mapID)}
	for _, a := range writableAlgorithms {
		names = append(names, ChecksumName(shuffle, mapID, a))
	}
	return names
}

// checkExisting refuses a map output of the writer's ids already in its
// directory, unless overwriting; then it refuses only names taken by
// something a rename cannot replace (a directory), so the commit does not
// fail halfway.
func (w *MapOutputWriter) checkExisting() error {
	for _, name := range outputNames(w.shuffle, w.mapID) {
		path := filepath.Join(w.dir, name)
		st, err := os.Lstat(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return &FileError{Path: path, Err: err}
		}
		if !w.cfg.force {
			return &FileError{Path: path, Err: ErrExists}
		}
		if st.IsDir() {
			return &FileError{Path: path, Err: errIsDir}
		}
	}
	return nil
}

// commit writes the data, checksum and index files under temporary names
// (Spark's: the final name, a dot and a UUID, which readers ignore) and
// renames them into place, the index last, as Spark's
// IndexShuffleBlockResolver commits a map output. With WithSync it syncs
// each file before the renames and the directory after them.
func (w *MapOutputWriter) commit(lengths, sums []int64) (out *MapOutput, err error) {
	var temps []string
	defer func() {
		if err != nil {
			for _, t := range temps {
				os.Remove(t)
			}
		}
	}()
	final := func(name string) string { return filepath.Join(w.dir, name) }
	out = &MapOutput{Shuffle: w.shuffle, Map: w.mapID, IndexPath: final(IndexName(w.shuffle, w.mapID)),
		Algorithm: w.cfg.algorithm, Offsets: offsetsOf(lengths)}

	// temp writes a file under a temporary name for name, kept in temps
	// for removal on an error once it exists.
	temp := func(name string, fill func(f *os.File) error) (string, error) {
		path, err := writeTemp(w.dir, name, w.cfg.sync, fill)
		if path != "" {
			temps = append(temps, path)
		}
		return path, err
	}
	var dataTemp, checksumTemp string
	if out.Size() > 0 {
		out.DataPath = final(DataName(w.shuffle, w.mapID))
		if dataTemp, err = temp(DataName(w.shuffle, w.mapID), func(f *os.File) error { return w.concatenate(f, lengths) }); err != nil {
			return nil, err
		}
	}
	if w.cfg.algorithm != NoChecksum {
		out.ChecksumPath, out.Checksums = final(ChecksumName(w.shuffle, w.mapID, w.cfg.algorithm)), sums
		if checksumTemp, err = temp(ChecksumName(w.shuffle, w.mapID, w.cfg.algorithm), writeBytes(AppendChecksums(nil, sums))); err != nil {
			return nil, err
		}
	}
	indexTemp, err := temp(IndexName(w.shuffle, w.mapID), writeBytes(AppendIndex(nil, lengths)))
	if err != nil {
		return nil, err
	}

	// Another writer may have committed since NewMapOutputWriter looked.
	if err := w.checkExisting(); err != nil {
		return nil, err
	}
	// An older map output (WithOverwrite) is set aside, every file of it,
	// index first, so that no reader meets half of each; the new files
	// go in, the index last; then the old ones go. Nothing is lost: a
	// failure before the last rename puts the old files back.
	var aside, placed [][2]string // {set-aside or new path, final path}
	defer func() {
		if err == nil {
			return
		}
		for _, r := range placed {
			os.Remove(r[1])
		}
		for _, r := range aside {
			renameFile(r[0], r[1])
		}
	}()
	if w.cfg.force {
		for _, name := range outputNames(w.shuffle, w.mapID) {
			path := final(name)
			if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
				continue
			}
			old := path + ".old-" + randomUUID()
			if err := renameFile(path, old); err != nil {
				return nil, fmt.Errorf("sparkshuffle: setting the older map output aside: %w", err)
			}
			aside = append(aside, [2]string{old, path})
		}
	}
	for _, r := range [][2]string{{checksumTemp, out.ChecksumPath}, {dataTemp, out.DataPath}, {indexTemp, out.IndexPath}} {
		if r[0] == "" {
			continue
		}
		if err := renameFile(r[0], r[1]); err != nil {
			return nil, fmt.Errorf("sparkshuffle: committing the map output: %w", err)
		}
		placed = append(placed, r)
	}
	for _, r := range aside {
		os.Remove(r[0])
	}
	if w.cfg.sync {
		syncDir(w.dir)
	}
	return out, nil
}

// renameFile is os.Rename; tests replace it to fail a commit partway.
var renameFile = os.Rename

// offsetsOf is the index offsets of segments of the given lengths.
func offsetsOf(lengths []int64) []int64 {
	offs := make([]int64, len(lengths)+1)
	for i, n := range lengths {
		offs[i+1] = offs[i] + n
	}
	return offs
}

// concatenate writes the partitions' bytes into f in order.
func (w *MapOutputWriter) concatenate(f *os.File, lengths []int64) error {
	for i := range w.parts {
		if lengths[i] == 0 {
			continue
		}
		if err := w.parts[i].sink.copyTo(f); err != nil {
			return fmt.Errorf("partition %d: %w", i, err)
		}
	}
	return nil
}

// writeTemp writes a new temporary file for name in dir with fill and,
// if sync, syncs it. It returns the temporary's path once it exists, also
// on an error.
func writeTemp(dir, name string, sync bool, fill func(f *os.File) error) (string, error) {
	f, path, err := createUnique(dir, name+".", 0o644)
	if err != nil {
		return "", fmt.Errorf("sparkshuffle: %w", err)
	}
	if err := fill(f); err != nil {
		f.Close()
		return path, &FileError{Path: path, Err: err}
	}
	if err := closeFile(f, sync); err != nil {
		return path, &FileError{Path: path, Err: err}
	}
	return path, nil
}

// writeBytes is a writeTemp fill that writes b.
func writeBytes(b []byte) func(f *os.File) error {
	return func(f *os.File) error {
		_, err := f.Write(b)
		return err
	}
}

// closeFile closes f, syncing it first if sync.
func closeFile(f *os.File, sync bool) error {
	var err error
	if sync {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// syncDir makes the renames durable where the system can sync a
// directory (not on Windows, which has no need); failure is not an error.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// createUnique creates a new file named prefix followed by a random UUID
// in dir, as Spark names its temporary files.
func createUnique(dir, prefix string, perm os.FileMode) (*os.File, string, error) {
	for range 100 {
		path := filepath.Join(dir, prefix+randomUUID())
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, path, err
	}
	return nil, "", fmt.Errorf("no unique temporary name in %s", dir)
}

// randomUUID is a random (version 4) UUID, as Java's UUID.randomUUID.
func randomUUID() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}
