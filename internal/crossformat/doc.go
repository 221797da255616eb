// Package crossformat holds the properties that tie the row formats
// together, run over random schemas and batches from internal/testgen:
// every format (UnsafeRow in Spark's and Velox's flavour, CompactRow)
// decodes what it encodes to the exact batch, with zeros under its nulls;
// encoding a decoded batch gives back the very bytes it was decoded from;
// and every format decodes one batch to the same batch. FuzzFormats derives
// the schema and rows from the fuzzer's input. The package has no code of
// its own: only its tests, which import both codecs.
package crossformat
