// jstypes.mjs DIR — writes, with apache-arrow JS, an IPC stream
// DIR/jstypes.arrows of the Arrow types JS producers write that the row
// formats do not carry as they are: large_utf8, a dictionary of utf8,
// timestamp[ms] (with and without a zone), date64 (JS's DateMillisecond),
// uint8 and uint64, float16 and a fixed_size_list. Row 2 is null in every
// column. The Go test (jstypes_test.go) encodes it with rowbridge and
// compares the rows with those of the converted values.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as arrow from 'apache-arrow';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node jstypes.mjs DIR');
  process.exit(2);
}

const vec = (values, type) => arrow.vectorFromArray(values, type);
const table = new arrow.Table({
  s: vec(['a', '', null, 'héllo ✓'], new arrow.LargeUtf8()),
  d: vec(['y', 'x', null, 'y'], new arrow.Dictionary(new arrow.Utf8(), new arrow.Int32())),
  ts: vec([0, -1, null, 1700000000123], new arrow.TimestampMillisecond()),
  tsz: vec([1, 2, null, 3], new arrow.TimestampMillisecond('Europe/Paris')),
  dt: vec([0, 86400000, null, -86400000], new arrow.DateMillisecond()),
  u8: vec([0, 255, null, 7], new arrow.Uint8()),
  u64: vec([0n, 18446744073709551615n, null, 42n], new arrow.Uint64()),
  f16: vec([1.5, -0.25, null, 65504], new arrow.Float16()),
  fsl: vec([[1, 2], [3, 4], null, [5, 6]], new arrow.FixedSizeList(2, new arrow.Field('item', new arrow.Int16(), true))),
});
writeFileSync(join(dir, 'jstypes.arrows'), arrow.tableToIPC(table, 'stream'));
console.log(table.schema.fields.map((f) => `${f.name}: ${f.type}`).join(', '));
