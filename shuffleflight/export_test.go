package shuffleflight

// RowsBytes is rowsBytes, for the tests.
var RowsBytes = rowsBytes

// PartitionRange is partitionRange, for the tests.
var PartitionRange = partitionRange

// ClientBodiesIdle is how much of the client's body memory is idle.
var ClientBodiesIdle = clientBodies.IdleBytes
