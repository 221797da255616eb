// Package testgen makes schemas and record batches for rowbridge tests and
// benchmarks: random schemas over every supported type, random batches with
// nulls at every level and extreme values, fixed shapes that once broke
// other implementations, the Velox serde benchmark cases, and exact batch
// comparison with a readable diff.
//
// It is test support: batches are built with arrow builders, and misuse
// panics rather than returning errors.
package testgen
