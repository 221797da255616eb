// duck.mjs DIR — reads DIR/duck.json, written by the Go interop tests:
//   { "tables": [{ "name": "t", "stream": "t.arrows" }],
//     "queries": [{ "sql": "SELECT ...", "out": "q1.arrow" }] }
// loads each Arrow IPC stream into DuckDB (duckdb-wasm, blocking Node
// bindings), runs each query and writes its result as the Arrow IPC file
// bytes DuckDB returns. Errors go to stderr and exit 1.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const duckdb = require('@duckdb/duckdb-wasm/dist/duckdb-node-blocking.cjs');

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node duck.mjs DIR');
  process.exit(2);
}
const job = JSON.parse(readFileSync(join(dir, 'duck.json'), 'utf8'));

const dist = dirname(require.resolve('@duckdb/duckdb-wasm/dist/duckdb-node-blocking.cjs'));
const db = await duckdb.createDuckDB(
  {
    mvp: { mainModule: join(dist, 'duckdb-mvp.wasm'), mainWorker: join(dist, 'duckdb-node-mvp.worker.cjs') },
    eh: { mainModule: join(dist, 'duckdb-eh.wasm'), mainWorker: join(dist, 'duckdb-node-eh.worker.cjs') },
  },
  new duckdb.VoidLogger(),
  duckdb.NODE_RUNTIME,
);
await db.instantiate();
const conn = db.connect();
const version = conn.query('SELECT version() AS v').getChildAt(0).get(0);

let failed = 0;
for (const t of job.tables) {
  try {
    conn.insertArrowFromIPCStream(readFileSync(join(dir, t.stream)), { name: t.name, create: true });
  } catch (e) {
    console.error(`load ${t.name}: ${e.message ?? e}`);
    failed++;
  }
}
for (const q of job.queries) {
  try {
    // runQuery hands back DuckDB's result as Arrow IPC file bytes, without
    // going through the bundled apache-arrow 17.
    const bytes = conn.useUnsafe((b, id) => b.runQuery(id, q.sql));
    writeFileSync(join(dir, q.out), bytes);
  } catch (e) {
    console.error(`query ${q.out}: ${e.message ?? e}\n  ${q.sql}`);
    failed++;
  }
}
conn.close();
console.log(`duckdb ${version}: ${job.tables.length} tables, ${job.queries.length - failed} queries ok`);
process.exit(failed ? 1 : 0);
