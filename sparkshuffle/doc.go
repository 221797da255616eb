// Package sparkshuffle reads and writes the map outputs Spark's sort-based shuffle
// leaves on disk (shuffle_<shuffle>_<map>_0.index, .data and
// .checksum.<ALGORITHM> files in blockmgr-* folders) and decodes the
// UnsafeRows of selected reduce partitions into Arrow record batches.
//
// Open finds the files in a set of directories and checks each map
// output's index, data size and checksum file; Set.Shuffles lists what it
// found (map outputs, partition sizes, skew, checksum algorithms), and
// Set.NewReader returns an array.RecordReader of a shuffle's partitions:
// rows in ascending partition order, then by ascending map id (numerically:
// 7 before 12), then in the order stored. Segments are verified against
// their checksums (unless WithChecksum(Ignore)), decompressed and decoded
// on WithWorkers goroutines with the order preserved and memory bounded by
// a few batches per worker.
//
// NewMapOutputWriter writes the other way: Arrow record batches, each row
// sent to the partition a partitioner gives (package sparkhash has Spark's),
// as one map output a Spark reducer can fetch, committed atomically.
//
// See docs/shuffle.md for the file layout byte by byte.
package sparkshuffle
