package shuffleflight

// RowsBytes is rowsBytes, for the tests.
var RowsBytes = rowsBytes

// PartitionRange is partitionRange, for the tests.
var PartitionRange = partitionRange
