package shuffleflight

// RowsBytes is rowsBytes, for the tests.
var RowsBytes = rowsBytes

// PartitionRange is partitionRange, for the tests.
var PartitionRange = partitionRange

// ClientBodiesIdle is how much of the client's body memory is idle.
var ClientBodiesIdle = clientBodies.IdleBytes

// WithAliasedBodies has DoGet send batch bodies as the batches' own memory
// (as it does without WithAllocator) with the tests' checked allocator,
// which wraps Go memory (what the IPC writer allocates stays valid after
// it is freed), so that the checks see what that path keeps and frees.
func WithAliasedBodies() Option {
	return func(c *config) error { c.aliasAny = true; return nil }
}

// WithCopiedBodies undoes WithAliasedBodies (with WithAllocator, DoGet
// then copies every body into its message).
func WithCopiedBodies() Option {
	return func(c *config) error { c.aliasAny = false; return nil }
}
