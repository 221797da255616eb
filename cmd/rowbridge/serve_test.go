package main

import "testing"

// serve's mistakes are usage errors (exit 2) or failures (exit 1), each one
// line, before anything is served.
func TestServeFailures(t *testing.T) {
	requireFailures(t, "serve", []cliFailure{
		{name: "no schema", args: []string{sampleShuffleDir}, code: 2,
			msg: "rowbridge serve: --schema is required (for example --schema 'id BIGINT, name STRING') (see 'rowbridge serve -h')"},
		{name: "no dir", args: []string{"--schema", sampleSchemaFlagText}, code: 2, msg: "rowbridge serve: no DIR given …"},
		{name: "unknown shuffle", args: []string{"--schema", sampleSchemaFlagText, "--shuffle", "3", sampleShuffleDir}, code: 1,
			msg: "rowbridge serve: --shuffle 3: no such shuffle in " + sampleShuffleDir + " (shuffles found: 0)"},
		{name: "bad addr", args: []string{"--addr", "127.0.0.1:99999", "--schema", sampleSchemaFlagText, sampleShuffleDir}, code: 1,
			msg: "rowbridge serve: --addr 127.0.0.1:99999: …"},
		{name: "empty token", args: []string{"--token", "", "--schema", sampleSchemaFlagText, sampleShuffleDir}, code: 2,
			msg: "rowbridge serve: --token: want a non-empty token without blanks (see 'rowbridge serve -h')"},
		{name: "small messages", args: []string{"--max-message-size", "1000", "--schema", sampleSchemaFlagText, sampleShuffleDir}, code: 2,
			msg: "rowbridge serve: --max-message-size 1000: want at least 65536 (see 'rowbridge serve -h')"},
		{name: "bad codec", args: []string{"--codec", "gzip", "--schema", sampleSchemaFlagText, sampleShuffleDir}, code: 2,
			msg: "rowbridge serve: --codec gzip: Spark's codecs are lz4, snappy, zstd and lzf (or auto, none) (see 'rowbridge serve -h')"},
	})
	requireFailures(t, "fetch", []cliFailure{
		{name: "no address", args: nil, code: 2, msg: "rowbridge fetch: want one server address, grpc://HOST:PORT (got 0 arguments) (see 'rowbridge fetch -h')"},
		{name: "not grpc", args: []string{"http://x:1"}, code: 2, msg: "rowbridge fetch: \"http://x:1\": want grpc://HOST:PORT, as serve prints it (see 'rowbridge fetch -h')"},
		{name: "both ranges", args: []string{"--partition", "1", "--partitions", "1-2", "grpc://127.0.0.1:1"}, code: 2, msg: "rowbridge fetch: --partition and --partitions exclude each other (see 'rowbridge fetch -h')"},
	})
}

const sampleSchemaFlagText = "@" + sampleShuffleDir + "/schema.ddl"
