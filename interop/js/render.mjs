// render.mjs — the exact rendering of Arrow values shared with Go
// (render_test.go), used by check.mjs and flight.mjs: int64/timestamp and
// decimal (unscaled) as decimal strings, floats as the hex of their bits,
// binary as hex, dates as day numbers, lists as arrays, structs as arrays of
// field values, maps as arrays of [key, value].
import * as arrow from 'apache-arrow';

const utf8 = new TextDecoder('utf-8', { fatal: true });

export function hex(bytes) {
  let s = '';
  for (const b of bytes) s += b.toString(16).padStart(2, '0');
  return s;
}

function intName(t) {
  return `${t.isSigned ? 'int' : 'uint'}${t.bitWidth}`;
}

// describeField renders a JS field the way Go renders an arrow.Field.
export function describeField(f) {
  return { name: f.name, nullable: f.nullable, type: describeType(f.type) };
}

export function describeType(t) {
  switch (t.typeId) {
    case arrow.Type.Null: return { id: 'null' };
    case arrow.Type.Bool: return { id: 'bool' };
    case arrow.Type.Int: return { id: intName(t) };
    case arrow.Type.Float:
      return { id: ({ [arrow.Precision.HALF]: 'float16', [arrow.Precision.SINGLE]: 'float32', [arrow.Precision.DOUBLE]: 'float64' })[t.precision] };
    case arrow.Type.Date: return { id: t.unit === arrow.DateUnit.DAY ? 'date32' : 'date64' };
    case arrow.Type.Timestamp:
      return { id: 'timestamp', unit: ['s', 'ms', 'us', 'ns'][t.unit], tz: t.timezone ?? '' };
    case arrow.Type.Decimal: return { id: 'decimal', precision: t.precision, scale: t.scale, bitWidth: t.bitWidth };
    case arrow.Type.Utf8: return { id: 'utf8' };
    case arrow.Type.Binary: return { id: 'binary' };
    case arrow.Type.List: return { id: 'list', item: describeField(t.children[0]) };
    case arrow.Type.Struct: return { id: 'struct', fields: t.children.map(describeField) };
    case arrow.Type.Map: return { id: 'map', keysSorted: t.keysSorted, entries: describeField(t.children[0]) };
  }
  return { id: `unsupported:${arrow.Type[t.typeId]}` };
}

// bitValid reads the validity bit itself, so that a null count in the IPC
// metadata that disagrees with the bitmap is caught (apache-arrow's getValid
// trusts the count and skips the bitmap when it is 0).
export function bitValid(data, i) {
  if (data.typeId === arrow.Type.Null) return false;
  const bm = data.nullBitmap;
  if (!bm || bm.length === 0) return true;
  const p = data.offset + i;
  return (bm[p >> 3] & (1 << (p & 7))) !== 0;
}

export function checkNullCounts(data, path, errors) {
  let n = 0;
  for (let i = 0; i < data.length; i++) if (!bitValid(data, i)) n++;
  if (n !== data.nullCount) errors.push(`${path}: null count ${data.nullCount} in IPC, bitmap has ${n} nulls`);
  data.children.forEach((c, k) => checkNullCounts(c, `${path}.child${k}`, errors));
}

// render gives the canonical JSON value of slot i of data.
export function render(data, i) {
  if (!bitValid(data, i)) return null;
  const t = data.type;
  const v = data.values;
  switch (t.typeId) {
    case arrow.Type.Bool: {
      const p = data.offset + i;
      return (v[p >> 3] & (1 << (p & 7))) !== 0;
    }
    case arrow.Type.Int:
      return t.bitWidth === 64 ? v[i].toString() : v[i];
    case arrow.Type.Float: {
      const w = t.precision === arrow.Precision.DOUBLE ? 8 : 4;
      const dv = new DataView(v.buffer, v.byteOffset + w * i, w);
      return '0x' + (w === 8 ? dv.getBigUint64(0, true).toString(16).padStart(16, '0') : dv.getUint32(0, true).toString(16).padStart(8, '0'));
    }
    case arrow.Type.Date:
      return t.unit === arrow.DateUnit.DAY ? v[i] : v[i].toString();
    case arrow.Type.Timestamp:
      return v[i].toString();
    case arrow.Type.Decimal: {
      const words = t.bitWidth / 32;
      let x = 0n;
      for (let k = words - 1; k >= 0; k--) x = (x << 32n) | BigInt(v[words * i + k]);
      if (v[words * i + words - 1] & 0x80000000) x -= 1n << BigInt(t.bitWidth);
      return x.toString();
    }
    case arrow.Type.Utf8: {
      const o = data.valueOffsets;
      return utf8.decode(v.subarray(o[i], o[i + 1]));
    }
    case arrow.Type.Binary: {
      const o = data.valueOffsets;
      return hex(v.subarray(o[i], o[i + 1]));
    }
    case arrow.Type.List: {
      const o = data.valueOffsets;
      const out = [];
      for (let j = o[i]; j < o[i + 1]; j++) out.push(render(data.children[0], j));
      return out;
    }
    case arrow.Type.Struct:
      return data.children.map((c) => render(c, i));
    case arrow.Type.Map: {
      const o = data.valueOffsets;
      const entries = data.children[0];
      const out = [];
      for (let j = o[i]; j < o[i + 1]; j++) {
        out.push(bitValid(entries, j) ? [render(entries.children[0], j), render(entries.children[1], j)] : null);
      }
      return out;
    }
  }
  throw new Error(`cannot render ${t}`);
}

// diff reports the first difference between want and got, or '' if equal.
export function diff(want, got, path) {
  if (Array.isArray(want) || Array.isArray(got)) {
    if (!Array.isArray(want) || !Array.isArray(got)) return `${path}: want ${JSON.stringify(want)}, got ${JSON.stringify(got)}`;
    if (want.length !== got.length) return `${path}: want length ${want.length}, got ${got.length}`;
    for (let k = 0; k < want.length; k++) {
      const d = diff(want[k], got[k], `${path}[${k}]`);
      if (d) return d;
    }
    return '';
  }
  if (want !== null && got !== null && typeof want === 'object' && typeof got === 'object') {
    const keys = new Set([...Object.keys(want), ...Object.keys(got)]);
    for (const k of keys) {
      const d = diff(want[k], got[k], `${path}.${k}`);
      if (d) return d;
    }
    return '';
  }
  return want === got ? '' : `${path}: want ${JSON.stringify(want)}, got ${JSON.stringify(got)}`;
}
