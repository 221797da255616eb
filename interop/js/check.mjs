// check.mjs DIR — reads DIR/manifest.json, written by the Go interop tests.
// For every case it reads rowbridge's Arrow IPC (stream and file) with
// apache-arrow JS, checks the schema, every value, every null and the null
// counts against the case's expected JSON, then writes the table back as IPC
// stream and file for Go to read. It writes DIR/report.json and exits 1 if
// any case failed.
//
// Expected values use one exact rendering shared with Go (render_test.go):
// int64/timestamp and decimal (unscaled) as decimal strings, floats as the
// hex of their bits, binary as hex, dates as day numbers, lists as arrays,
// structs as arrays of field values, maps as arrays of [key, value].
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as arrow from 'apache-arrow';
import { checkNullCounts, describeField, diff, render } from './render.mjs';

const MAX_ERRORS = 8;

function checkTable(table, expect, kind, errors) {
  const add = (msg) => { if (errors.length < MAX_ERRORS) errors.push(`${kind}: ${msg}`); };
  if (table.numRows !== expect.rows) add(`rows: want ${expect.rows}, got ${table.numRows}`);
  const d = diff(expect.fields, table.schema.fields.map(describeField), 'schema');
  if (d) {
    add(d);
    return;
  }
  expect.fields.forEach((f, c) => {
    const col = table.getChildAt(c);
    const got = [];
    let nulls = 0;
    for (const data of col.data) {
      const e = [];
      checkNullCounts(data, f.name, e);
      e.forEach(add);
      nulls += data.nullCount;
      for (let i = 0; i < data.length; i++) got.push(render(data, i));
    }
    if (nulls !== expect.nullCounts[c]) add(`${f.name}: null count want ${expect.nullCounts[c]}, got ${nulls}`);
    const dv = diff(expect.columns[c], got, f.name);
    if (dv) add(dv);
  });
}

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node check.mjs DIR');
  process.exit(2);
}
const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
const report = { cases: [] };
let failed = 0;
for (const c of manifest.cases) {
  const errors = [];
  const expect = JSON.parse(readFileSync(join(dir, c.expect), 'utf8'));
  for (const [kind, file] of [['stream', c.stream], ['file', c.file]]) {
    let table;
    try {
      table = arrow.tableFromIPC(readFileSync(join(dir, file)));
      checkTable(table, expect, kind, errors);
    } catch (e) {
      errors.push(`${kind}: ${e.stack ?? e}`);
      continue;
    }
    if (kind === 'stream' && c.outStream) {
      writeFileSync(join(dir, c.outStream), arrow.tableToIPC(table, 'stream'));
      writeFileSync(join(dir, c.outFile), arrow.tableToIPC(table, 'file'));
    }
  }
  if (errors.length) failed++;
  report.cases.push({ name: c.name, ok: errors.length === 0, errors });
}
writeFileSync(join(dir, 'report.json'), JSON.stringify(report, null, 1));
for (const c of report.cases) if (!c.ok) console.error(`${c.name}:\n  ${c.errors.join('\n  ')}`);
console.log(`${report.cases.length - failed}/${report.cases.length} cases ok`);
process.exit(failed ? 1 : 0);
