import v8 from 'node:v8';

/**
 * How far V8 lets the old generation grow past what survived its last mark-compact, in per cent.
 * Reading a page allocates megabytes of short-lived buffers (pixels, masks, tensors, TSV) that
 * outlive a scavenge while their step awaits sharp or tesseract, and V8 sized the old generation
 * tightly around the ~50 MB that lives: a mark-compact every 1.3 SROIE scans, each freeing 3 MB.
 * With room for twice what lives there were 18 instead of 50 over 41 scans, and the process's
 * own CPU per scan (tesseract's processes aside) fell from 0.68 and 0.62 to 0.58 and 0.58 CPU-s.
 */
const HEAP_GROWING_PERCENT = 100;

/**
 * Gives this process's heap room to grow between mark-compacts. Process-wide, so the api beside
 * the worker in one process (PGlite) gets it too: fewer of the pauses that were its slowest
 * bursts. The flag is read at each mark-compact, so setting it after start-up takes effect (the
 * count above was taken that way).
 */
export function giveHeapHeadroom(): void {
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
