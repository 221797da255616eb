// Package arrowvec holds the Arrow memory allocator that rowbridge's stream
// Readers decode into: RecyclingAllocator, a memory.Allocator that hands
// the buffers of released batches out again, within a per-allocator and a
// process-wide bound on idle memory (SetProcessIdleLimit).
//
// Pass one to a codec with WithAllocator (unsaferow, compactrow) to share
// it between Readers or to bound it differently; a Reader without
// WithAllocator makes its own.
package arrowvec
