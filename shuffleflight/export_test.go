package shuffleflight

// RowsBytes is rowsBytes, for the tests.
var RowsBytes = rowsBytes
