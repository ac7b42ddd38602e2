// Bytes crossing to another thread or process (postMessage, `serialization: 'advanced'` IPC):
// structured clone delivers a Buffer as a plain Uint8Array, and copies what it is not told to move.

/** A Buffer again, over the same memory: the contracts on both sides are Buffers. */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** A Buffer's memory, to move rather than copy, when the Buffer holds all of it (not a slice of Node's pool). */
export function movable(buffers: readonly Uint8Array[]): ArrayBuffer[] {
  return buffers.filter((b) => b.byteOffset === 0 && b.byteLength === b.buffer.byteLength && b.buffer instanceof ArrayBuffer).map((b) => b.buffer as ArrayBuffer);
}
