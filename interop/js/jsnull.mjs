// jsnull.mjs DIR — writes, with apache-arrow JS, a table whose columns have
// the Null type at the top level and as a list element, a struct field and
// a map value, as DIR/jsnull.arrows (stream) and DIR/jsnull.arrow (file),
// in two record batches: the whole table, then a slice of it. JS writes
// null_count -1 ("unknown") for the Null-typed arrays it sliced: in both
// batches the list element and the map value, in the second the top-level
// column and the struct field too. It writes DIR/jsnull.json: each record
// batch's field nodes, read back from the stream's bytes, so the Go test
// can check that the -1s are there.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as arrow from 'apache-arrow';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node jsnull.mjs DIR');
  process.exit(2);
}

const nullType = () => new arrow.Null();
const field = (name, type, nullable = true) => new arrow.Field(name, type, nullable);
const nulls = (length) => arrow.makeData({ type: nullType(), length });
const int32s = (values) => arrow.vectorFromArray(values, new arrow.Int32()).data[0];
const strings = (values) => arrow.vectorFromArray(values, new arrow.Utf8()).data[0];

const rows = 6;
const listType = new arrow.List(field('element', nullType()));
const structType = new arrow.Struct([field('a', nullType()), field('b', new arrow.Int32())]);
const entriesType = new arrow.Struct([field('key', new arrow.Utf8(), false), field('value', nullType())]);
const mapType = new arrow.Map_(field('entries', entriesType, false));

// ln: [null, null], null, [], [null], [null, null, null], [null]
const ln = arrow.makeData({
  type: listType, length: rows, nullCount: 1, nullBitmap: Uint8Array.from([0b111101]),
  valueOffsets: Int32Array.from([0, 2, 2, 2, 3, 6, 7]), child: nulls(7),
});
// st: {a: null, b: 1}, {a: null, b: null}, {a: null, b: 3}, ...
const st = arrow.makeData({ type: structType, length: rows, children: [nulls(rows), int32s([1, null, 3, 4, 5, 6])] });
// m: {k: null}, {}, {x: null, y: null}, {}, {z: null}, {}
const entries = arrow.makeData({ type: entriesType, length: 4, children: [strings(['k', 'x', 'y', 'z']), nulls(4)] });
const m = arrow.makeData({ type: mapType, length: rows, valueOffsets: Int32Array.from([0, 1, 1, 3, 3, 4, 4]), child: entries });

const whole = new arrow.Table({
  n: arrow.makeVector(nulls(rows)),
  ln: arrow.makeVector(ln),
  st: arrow.makeVector(st),
  m: arrow.makeVector(m),
  i: arrow.makeVector(int32s([1, 2, null, 4, 5, 6])),
});
const table = whole.concat(whole.slice(1));

const stream = arrow.tableToIPC(table, 'stream');
writeFileSync(join(dir, 'jsnull.arrows'), stream);
writeFileSync(join(dir, 'jsnull.arrow'), arrow.tableToIPC(table, 'file'));

const batches = [];
const reader = new arrow.MessageReader(stream);
for (let msg; (msg = reader.readMessage());) {
  if (msg.isRecordBatch()) {
    batches.push(msg.header().nodes.map((n) => ({ length: Number(n.length), nullCount: Number(n.nullCount) })));
  }
  reader.readMessageBody(msg.bodyLength);
}
writeFileSync(join(dir, 'jsnull.json'), JSON.stringify({ batches }));
console.log(`wrote ${table.numRows} rows in ${batches.length} batches`);
