// Package columnar is the columnar assembly layer shared by the row codecs
// (and the casts): what both sides of a codec need to read and build Arrow
// arrays without builders.
//
// A codec walks a Plan (the schema resolved into one Node per field, with its
// physical Kind, its path for error messages and, for decimals, its Limit),
// sizes every output buffer first, allocates each one once with exactly the
// bytes it needs, fills it, and hands the buffers to the Data constructors
// here. No array builders are involved, so no per-value dispatch or
// reallocation happens on the hot path. Encoders read their input through
// View, the one offset-aware typed view of an Arrow array, which writes
// nothing into the array. Kind carries the one table of bytes per value.
//
// Ownership: the constructors take over the caller's reference to each
// buffer and child; the returned ArrayData holds the only references.
package columnar
