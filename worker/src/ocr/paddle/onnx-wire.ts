// The few parts of ONNX's protobuf format (onnx.proto) that the graph rewrite reads and writes.
// Everything it does not touch is carried over byte for byte, so no field is lost to a schema here.

/** One field of a protobuf message: its number, wire type, and where it lies in the message. */
export interface WireField {
  field: number;
  wire: number;
  /** The whole field, tag included, to copy it unchanged. */
  raw: Uint8Array;
  /** A length-delimited field's contents. */
  bytes?: Uint8Array;
  /** A varint field's value (non-negative values below 2^53; ONNX's dims, enums and versions). */
  varint?: number;
  /** A 32-bit field (ONNX: a float). */
  fixed32?: Uint8Array;
}

function readVarint(buf: Uint8Array, at: number): [value: number, next: number] {
  let value = 0;
  let scale = 1;
  for (let pos = at; pos < buf.length; pos++) {
    const byte = buf[pos]!;
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) return [value, pos + 1];
    scale *= 128;
    if (pos - at >= 9) break;
  }
  throw new Error('A malformed varint in the ONNX model');
}

/** The fields of one message, in order. */
export function fieldsOf(buf: Uint8Array): WireField[] {
  const fields: WireField[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const start = pos;
    const [tag, afterTag] = readVarint(buf, pos);
    const wire = tag % 8;
    const field: Omit<WireField, 'raw'> = { field: Math.floor(tag / 8), wire };
    pos = afterTag;
    switch (wire) {
      case 0:
        [field.varint, pos] = readVarint(buf, pos);
        break;
      case 1:
        pos += 8;
        break;
      case 2: {
        const [length, from] = readVarint(buf, pos);
        field.bytes = buf.subarray(from, from + length);
        pos = from + length;
        break;
      }
      case 5:
        field.fixed32 = buf.subarray(pos, pos + 4);
        pos += 4;
        break;
      default:
        throw new Error(`Unsupported protobuf wire type ${wire} in the ONNX model`);
    }
    if (pos > buf.length) throw new Error('A truncated field in the ONNX model');
    fields.push({ ...field, raw: buf.subarray(start, pos) });
  }
  return fields;
}

const utf8 = new TextDecoder();
const encoder = new TextEncoder();
export const text = (bytes: Uint8Array | undefined): string => (bytes ? utf8.decode(bytes) : '');

/** Varints of a field that may be repeated one by one or packed. */
export function varintsOf(fields: WireField[], number: number): number[] {
  const values: number[] = [];
  for (const f of fields) {
    if (f.field !== number) continue;
    if (f.varint !== undefined) values.push(f.varint);
    else if (f.bytes) {
      for (let pos = 0; pos < f.bytes.length; ) {
        const [value, next] = readVarint(f.bytes, pos);
        values.push(value);
        pos = next;
      }
    }
  }
  return values;
}

// Writing: each helper returns whole fields (tag included), to be joined with Buffer.concat.

function varintBytes(value: number): number[] {
  const out: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    out.push((rest % 128) | 0x80);
    rest = Math.floor(rest / 128);
  }
  out.push(rest);
  return out;
}

export function varintField(number: number, value: number): Uint8Array {
  return Uint8Array.from([...varintBytes(number * 8), ...varintBytes(value)]);
}

export function bytesField(number: number, contents: Uint8Array | string): Uint8Array {
  const body = typeof contents === 'string' ? encoder.encode(contents) : contents;
  return Buffer.concat([Uint8Array.from([...varintBytes(number * 8 + 2), ...varintBytes(body.length)]), body]);
}

export function floatField(number: number, value: number): Uint8Array {
  const out = new Uint8Array([...varintBytes(number * 8 + 5), 0, 0, 0, 0]);
  new DataView(out.buffer).setFloat32(out.length - 4, value, true);
  return out;
}
