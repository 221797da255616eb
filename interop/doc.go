// Package interop holds rowbridge's cross-language round-trip tests: Arrow
// IPC to and from apache-arrow JS and DuckDB (duckdb-wasm), and the C Data
// Interface (subpackage cdata). See README.md for what is checked and how to
// run it.
package interop
