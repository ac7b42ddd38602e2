/**
 * Reads the image sizes a HEIC/HEIF file declares (its `ispe` properties) without decoding
 * anything, so a file claiming a huge image is refused before the decoder allocates for it.
 */

interface Box {
  type: string;
  /** Offset of the box's body (after its header). */
  start: number;
  end: number;
}

/** The ISO-BMFF boxes laid end to end in bytes[start, end); stops at the first malformed header. */
function* boxes(bytes: Buffer, start: number, end: number): Generator<Box> {
  let at = start;
  while (at + 8 <= end) {
    let size = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    let header = 8;
    if (size === 1) {
      if (at + 16 > end) return;
      size = Number(bytes.readBigUInt64BE(at + 8));
      header = 16;
    } else if (size === 0) {
      size = end - at;
    }
    if (size < header || at + size > end) return;
    yield { type, start: at + header, end: at + size };
    at += size;
  }
}

function child(bytes: Buffer, parent: Box | { start: number; end: number }, type: string, fullBox = false): Box | undefined {
  for (const box of boxes(bytes, parent.start, parent.end)) {
    if (box.type === type) return fullBox ? { ...box, start: box.start + 4 } : box;
  }
  return undefined;
}

/** Every `ispe` (image spatial extents) in meta/iprp/ipco: the primary image, its tiles, thumbnails. */
export function heicImageSizes(bytes: Buffer): Array<{ width: number; height: number }> {
  const meta = child(bytes, { start: 0, end: bytes.length }, 'meta', true);
  const iprp = meta && child(bytes, meta, 'iprp');
  const ipco = iprp && child(bytes, iprp, 'ipco');
  if (!ipco) return [];
  const sizes: Array<{ width: number; height: number }> = [];
  for (const box of boxes(bytes, ipco.start, ipco.end)) {
    // version/flags (4 bytes), then image_width and image_height (32 bits each).
    if (box.type !== 'ispe' || box.end - box.start < 12) continue;
    sizes.push({ width: bytes.readUInt32BE(box.start + 4), height: bytes.readUInt32BE(box.start + 8) });
  }
  return sizes;
}
