// flight.mjs DIR — a Flight client in Node.js (@grpc/grpc-js, Flight.proto
// written from the Arrow Flight specification, apache-arrow) for the Go
// interop test flight_test.go. DIR/flight.json names the server (url,
// token), the shuffle and the partitions to read. The program lists the
// flights, gets the shuffle's FlightInfo, reads the partitions with DoGet,
// decoding each stream of FlightData with apache-arrow, and prints one JSON
// document on stdout: the flights, the info, and every partition's rows
// rendered as render.mjs renders them (the rendering Go's render_test.go
// shares). Exit 1 on any failure.
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import * as arrow from 'apache-arrow';
import { checkNullCounts, describeField, render } from './render.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const definition = protoLoader.loadSync(join(here, 'Flight.proto'), {
  keepCase: true, longs: String, enums: String, bytes: Buffer, defaults: true,
});
const { FlightService } = grpc.loadPackageDefinition(definition).arrow.flight.protocol;

// ipcStream reassembles Arrow IPC stream bytes from FlightData messages:
// each message is the continuation marker 0xFFFFFFFF, the metadata length
// (int32, little-endian, the metadata padded to 8 bytes), the metadata (the
// data_header flatbuffer) and the body (data_body); then the end-of-stream
// marker.
function ipcStream(messages) {
  const parts = [];
  for (const m of messages) {
    const header = m.data_header;
    if (!header || header.length === 0) continue; // app_metadata only
    const padded = (header.length + 7) & ~7;
    const prefix = Buffer.alloc(8);
    prefix.writeUInt32LE(0xffffffff, 0);
    prefix.writeInt32LE(padded, 4);
    parts.push(prefix, header, Buffer.alloc(padded - header.length), m.data_body ?? Buffer.alloc(0));
  }
  parts.push(Buffer.from([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]));
  return Buffer.concat(parts);
}

function unary(client, method, request, metadata) {
  return new Promise((resolve, reject) => {
    client[method](request, metadata, (err, res) => (err ? reject(err) : resolve(res)));
  });
}

function collect(stream) {
  return new Promise((resolve, reject) => {
    const out = [];
    stream.on('data', (m) => out.push(m));
    stream.on('error', reject);
    stream.on('end', () => resolve(out));
  });
}

function describeInfo(info) {
  return {
    path: info.flight_descriptor?.path ?? [],
    type: info.flight_descriptor?.type ?? '',
    endpoints: info.endpoint.length,
    locations: info.endpoint.map((e) => e.location.map((l) => l.uri)),
    totalRecords: info.total_records,
    totalBytes: info.total_bytes,
    ordered: info.ordered,
    fields: arrow.tableFromIPC(info.schema).schema.fields.map(describeField),
  };
}

// renderTable renders a table as Go's expect() does: rows, fields,
// columns of rendered values, null counts; errors collects bad null counts.
function renderTable(table, errors) {
  const columns = [];
  const nullCounts = [];
  table.schema.fields.forEach((f, c) => {
    const col = table.getChildAt(c);
    const values = [];
    let nulls = 0;
    for (const data of col.data) {
      checkNullCounts(data, f.name, errors);
      nulls += data.nullCount;
      for (let i = 0; i < data.length; i++) values.push(render(data, i));
    }
    columns.push(values);
    nullCounts.push(nulls);
  });
  return { rows: table.numRows, fields: table.schema.fields.map(describeField), columns, nullCounts };
}

async function main() {
  const dir = process.argv[2];
  if (!dir) throw new Error('usage: node flight.mjs DIR');
  const job = JSON.parse(readFileSync(join(dir, 'flight.json'), 'utf8'));
  const url = new URL(job.url);
  if (url.protocol !== 'grpc:') throw new Error(`${job.url}: want grpc://HOST:PORT`);
  const client = new FlightService(url.host, grpc.credentials.createInsecure(), {
    'grpc.max_receive_message_length': 4 << 20, // the default, said out loud
  });
  const md = new grpc.Metadata();
  if (job.token) md.set('authorization', `Bearer ${job.token}`);
  const out = { flights: [], partitions: [], errors: [] };

  // Without the token, a call is refused.
  try {
    await unary(client, 'GetFlightInfo', { type: 'PATH', path: ['shuffle', String(job.shuffle)] }, new grpc.Metadata());
    out.errors.push('GetFlightInfo without a token succeeded');
  } catch (e) {
    out.noToken = grpc.status[e.code];
  }

  const flights = await collect(client.ListFlights({ expression: Buffer.alloc(0) }, md));
  out.flights = flights.map(describeInfo);
  const info = await unary(client, 'GetFlightInfo', { type: 'PATH', path: ['shuffle', String(job.shuffle)] }, md);
  out.info = describeInfo(info);
  const schema = await unary(client, 'GetSchema', { type: 'PATH', path: ['shuffle', String(job.shuffle)] }, md);
  out.schemaFields = arrow.tableFromIPC(schema.schema).schema.fields.map(describeField);
  for (const p of job.partitions) {
    const messages = await collect(client.DoGet(info.endpoint[p].ticket, md));
    const table = arrow.tableFromIPC(ipcStream(messages));
    out.partitions.push({ partition: p, messages: messages.length, ...renderTable(table, out.errors) });
  }
  try {
    await collect(client.DoGet({ ticket: Buffer.from('not a ticket') }, md));
    out.errors.push('DoGet of a bad ticket succeeded');
  } catch (e) {
    out.badTicket = grpc.status[e.code];
  }
  client.close();
  process.stdout.write(JSON.stringify(out) + '\n');
}

main().catch((e) => {
  console.error(e.stack ?? String(e));
  process.exit(1);
});
