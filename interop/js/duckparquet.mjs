// duckparquet.mjs DIR — reads DIR/duckparquet.json, written by the Go
// interop tests:
//   { "steps": [{ "sql": "SELECT ... FROM read_parquet('/abs/x.parquet')", "out": "x.json" },
//               { "sql": "COPY (...) TO '/abs/y.parquet' (FORMAT parquet)" }] }
// runs each statement in native DuckDB (@duckdb/node-api) and, for a step
// with "out", writes the result as JSON:
//   { "columns": [{ "name": "c", "type": "INTEGER[]" }], "rows": [[...], ...] }
// Values are rendered exactly, as the Go tests render Arrow values
// (interop/render_test.go renderValue): BIGINT, timestamps (microseconds)
// and unscaled decimals as decimal strings, floats as the hex of their
// bits, dates as day numbers, blobs as hex, lists as arrays, maps as
// arrays of [key, value], structs as arrays of their fields in order.
// Errors go to stderr and exit 1.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance, DuckDBTypeId, version } from '@duckdb/node-api';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node duckparquet.mjs DIR');
  process.exit(2);
}
const job = JSON.parse(readFileSync(join(dir, 'duckparquet.json'), 'utf8'));

const hex = (bytes) => Buffer.from(bytes).toString('hex');
const bits = (v, size) => {
  const b = Buffer.alloc(size);
  if (size === 4) b.writeFloatBE(v);
  else b.writeDoubleBE(v);
  return '0x' + b.toString('hex');
};

function render(type, v) {
  if (v === null || v === undefined) return null;
  switch (type.typeId) {
    case DuckDBTypeId.SQLNULL:
      return null;
    case DuckDBTypeId.BOOLEAN:
    case DuckDBTypeId.TINYINT:
    case DuckDBTypeId.SMALLINT:
    case DuckDBTypeId.INTEGER:
    case DuckDBTypeId.VARCHAR:
      return v;
    case DuckDBTypeId.BIGINT:
      return String(v);
    case DuckDBTypeId.FLOAT:
      return bits(v, 4);
    case DuckDBTypeId.DOUBLE:
      return bits(v, 8);
    case DuckDBTypeId.DATE:
      return v.days;
    case DuckDBTypeId.TIMESTAMP:
    case DuckDBTypeId.TIMESTAMP_TZ:
      return String(v.micros);
    case DuckDBTypeId.DECIMAL:
      return v.value.toString();
    case DuckDBTypeId.BLOB:
      return hex(v.bytes);
    case DuckDBTypeId.LIST:
      return v.items.map((x) => render(type.valueType, x));
    case DuckDBTypeId.MAP:
      return v.entries.map((e) => [render(type.keyType, e.key), render(type.valueType, e.value)]);
    case DuckDBTypeId.STRUCT:
      return type.entryNames.map((n, i) => render(type.entryTypes[i], v.entries[n]));
  }
  throw new Error(`no rendering for DuckDB type ${type}`);
}

const instance = await DuckDBInstance.create(':memory:');
const conn = await instance.connect();
let failed = 0;
for (const step of job.steps) {
  try {
    const reader = await conn.runAndReadAll(step.sql);
    if (!step.out) continue;
    const types = reader.columnTypes();
    const rows = reader.getRows().map((row) => row.map((v, i) => render(types[i], v)));
    const columns = reader.columnNames().map((name, i) => ({ name, type: String(types[i]) }));
    writeFileSync(join(dir, step.out), JSON.stringify({ columns, rows }));
  } catch (e) {
    console.error(`${step.out ?? 'statement'}: ${e.message ?? e}\n  ${step.sql}`);
    failed++;
  }
}
conn.closeSync();
console.log(`duckdb ${version()}: ${job.steps.length - failed} of ${job.steps.length} statements ok`);
process.exit(failed ? 1 : 0);
