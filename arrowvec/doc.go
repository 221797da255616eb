// Package arrowvec is the columnar assembly layer shared by the row codecs.
//
// A codec walks a Plan (the schema resolved into one Node per field, with its
// physical Kind and its path for error messages), sizes every output buffer
// first, allocates each one once with exactly the bytes it needs, fills it,
// and hands the buffers to the Data constructors here. No array builders are
// involved, so no per-value dispatch or reallocation happens on the hot path.
//
// Ownership: the constructors take over the caller's reference to each
// buffer and child; the returned ArrayData holds the only references.
package arrowvec
