import { getEventListeners } from 'node:events';
import { readFile } from 'node:fs/promises';
import { ConfigError, decodeConfigSchema, parseConfig } from '@receipts/infra';
import { pino } from 'pino';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { heicClaiming, hugeImagePdf, pathBombPdf } from '../../../tests/support/decode-bombs.js';
import { textPdf } from '../../../tests/support/pdf-fixtures.js';
import { alive } from '../../../tests/support/process-output.js';
import { UnreadableFileError } from '../page/unreadable-file.error.js';
import { DecodeSandbox } from './decode.sandbox.js';
import { heicImageSizes } from './heic-header.parser.js';

/** A sandbox whose log lines the test can read. */
function sandboxWith(limits: { DECODE_TIMEOUT_MS?: number; DECODE_MAX_RSS_MB?: number; DECODE_PROCESSES?: number }) {
  const lines: Array<Record<string, unknown>> = [];
  const log = pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  const sandbox = new DecodeSandbox({ DECODE_TIMEOUT_MS: 30_000, DECODE_MAX_RSS_MB: 1536, DECODE_PROCESSES: 1, ...limits }, log);
  opened.push(sandbox);
  return { sandbox, lines };
}
const opened: DecodeSandbox[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

const never = () => new AbortController().signal;
const smallPng = () => sharp({ create: { width: 64, height: 48, channels: 3, background: '#808080' } }).png().toBuffer();

/** The longest the event loop went without running a 10 ms timer while `work` ran. */
async function longestStall<T>(work: Promise<T>): Promise<{ stallMs: number; outcome: T | unknown }> {
  let last = performance.now();
  let stallMs = 0;
  const tick = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last);
    last = now;
  }, 10);
  const outcome = await work.catch((e: unknown) => e);
  clearInterval(tick);
  return { stallMs, outcome };
}

describe('DecodeSandbox', () => {
  it('kills a decoder that runs past the time limit, fails the file as unreadable, and keeps serving', async () => {
    const { sandbox, lines } = sandboxWith({ DECODE_TIMEOUT_MS: 3000 });
    await sandbox.decode(await smallPng(), 'image/png', never());
    const bomb = pathBombPdf();
    const started = performance.now();
    const { stallMs, outcome } = await longestStall(sandbox.decode(bomb, 'application/pdf', never()));
    const ms = performance.now() - started;
    const kill = lines.find((l) => l.msg === 'decoder killed: file took too long');
    console.log(`path bomb: failed after ${Math.round(ms)} ms and ${String(kill?.cpuMs)} ms of CPU, decoder at ${String(kill?.peakRssMb)} MB, longest event-loop stall ${Math.round(stallMs)} ms`);
    expect(outcome).toBeInstanceOf(UnreadableFileError);
    expect((outcome as Error).message).toBe('This PDF is too complex to read in time.');
    // Killed once its threads together had 3 s of CPU (on more than one core that is less wall time).
    expect(kill).toMatchObject({ mimeType: 'application/pdf', limitMs: 3000 });
    expect(kill!.cpuMs as number).toBeGreaterThanOrEqual(3000);
    expect(ms).toBeLessThan(6 * 3000);
    expect(alive(kill!.decoderPid as number)).toBe(false);
    // A generous bound: the point is that the loop never waits on the decoder.
    expect(stallMs).toBeLessThan(1000);
    // A fresh decoder reads the next file.
    const next = await sandbox.decode(await smallPng(), 'image/png', never());
    expect(next.pages[0]).toMatchObject({ width: 64, height: 48 });
  });

  it('counts the CPU time a file takes, not the time the decoder waits for a core', async () => {
    const { sandbox, lines } = sandboxWith({ DECODE_TIMEOUT_MS: 1000 });
    await sandbox.decode(await smallPng(), 'image/png', never());
    const pid = lines.find((l) => l.msg === 'file decoded')!.decoderPid as number;
    // A host that gives the decoder no CPU at all for 2.5 s, twice its limit, while the file waits.
    process.kill(pid, 'SIGSTOP');
    setTimeout(() => process.kill(pid, 'SIGCONT'), 2500);
    const started = performance.now();
    const decoded = await sandbox.decode(await smallPng(), 'image/png', never());
    expect(decoded.pages[0]).toMatchObject({ width: 64, height: 48 });
    expect(performance.now() - started).toBeGreaterThanOrEqual(2400);
    expect(lines.filter((l) => l.msg === 'file decoded').at(-1)).toMatchObject({ decoderPid: pid, cpuMs: expect.any(Number) });
  });

  it('kills a decoder that grows past the memory limit', async () => {
    const { sandbox, lines } = sandboxWith({ DECODE_MAX_RSS_MB: 450 });
    // 64 megapixels: allowed by the pixel check, about 1.2 GB to render.
    const outcome = await sandbox.decode(hugeImagePdf(8000), 'application/pdf', never()).catch((e: unknown) => e);
    const kill = lines.find((l) => l.msg === 'decoder killed: file needed too much memory');
    console.log(`64-megapixel PDF image under a 450 MB limit: killed at ${String(kill?.peakRssMb)} MB after ${String(kill?.ms)} ms`);
    expect(outcome).toBeInstanceOf(UnreadableFileError);
    expect((outcome as Error).message).toBe('This file is too large or complex to process.');
    expect(kill).toMatchObject({ limitMb: 450 });
    expect(kill!.peakRssMb as number).toBeGreaterThanOrEqual(450);
    expect((await sandbox.decode(await smallPng(), 'image/png', never())).pages).toHaveLength(1);
  });

  it('stops decoding at once when the job is cancelled', async () => {
    const { sandbox, lines } = sandboxWith({});
    await sandbox.decode(await smallPng(), 'image/png', never());
    const pid = lines.find((l) => l.msg === 'file decoded')!.decoderPid as number;
    const control = new AbortController();
    const decoding = sandbox.decode(pathBombPdf(), 'application/pdf', control.signal).catch((e: unknown) => e);
    setTimeout(() => control.abort(new Error('cancelled by user')), 500);
    const started = performance.now();
    const outcome = await decoding;
    expect((outcome as Error).message).toBe('cancelled by user');
    expect(performance.now() - started).toBeLessThan(3000);
    expect(alive(pid)).toBe(false);
  });

  it('queues files beyond its processes and runs them all', async () => {
    const { sandbox, lines } = sandboxWith({ DECODE_PROCESSES: 2 });
    const png = await smallPng();
    const results = await Promise.all(Array.from({ length: 5 }, () => sandbox.decode(png, 'image/png', never())));
    expect(results.every((r) => r.pages.length === 1)).toBe(true);
    expect(new Set(lines.filter((l) => l.msg === 'file decoded').map((l) => l.decoderPid)).size).toBe(2);
  });

  it('lets a PDF go before the pictures waiting for a process, the pictures keeping their order', async () => {
    const { sandbox } = sandboxWith({ DECODE_PROCESSES: 1 });
    const photo = await sharp({ create: { width: 1600, height: 2200, channels: 3, background: '#d0d0d0' } }).jpeg().toBuffer();
    const done: string[] = [];
    const decode = (name: string, bytes: Buffer, mime: 'image/jpeg' | 'application/pdf') => sandbox.decode(bytes, mime, never()).then(() => done.push(name));
    // The first picture holds the one process; the rest wait.
    await Promise.all([
      decode('photo 1', photo, 'image/jpeg'),
      decode('photo 2', photo, 'image/jpeg'),
      decode('photo 3', photo, 'image/jpeg'),
      decode('text pdf', textPdf([['CORNER SHOP', 'TOTAL 4.20']]), 'application/pdf'),
    ]);
    expect(done).toEqual(['photo 1', 'text pdf', 'photo 2', 'photo 3']);
  });

  it('leaves no listener on a signal that outlives its decodes', async () => {
    const { sandbox } = sandboxWith({});
    const signal = new AbortController().signal;
    const png = await smallPng();
    for (let n = 0; n < 12; n++) await sandbox.decode(png, 'image/png', signal);
    await sandbox.decode(Buffer.from('not really a png'), 'image/png', signal).catch(() => 'unreadable, as meant');
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  it('fails a file the decoder calls unreadable without killing the decoder', async () => {
    const { sandbox, lines } = sandboxWith({});
    const outcome = await sandbox.decode(Buffer.from('not really a jpeg'), 'image/jpeg', never()).catch((e: unknown) => e);
    expect(outcome).toBeInstanceOf(UnreadableFileError);
    expect((outcome as Error).message).toBe('This image could not be read: the file is damaged or incomplete.');
    const failed = lines.find((l) => l.msg === 'file could not be decoded')!;
    expect(failed.cause).toBeTruthy();
    await sandbox.decode(await smallPng(), 'image/png', never());
    expect(lines.find((l) => l.msg === 'file decoded')!.decoderPid).toBe(failed.decoderPid);
  });
});

describe('decode limits in the config', () => {
  it('default to 30 s, 1536 MB and 2 processes, and refuse nonsense naming the variable', () => {
    expect(decodeConfigSchema.parse({})).toEqual({ DECODE_TIMEOUT_MS: 30_000, DECODE_MAX_RSS_MB: 1536, DECODE_PROCESSES: 2 });
    expect(parseConfig({ DECODE_TIMEOUT_MS: '8000', DECODE_MAX_RSS_MB: '700' })).toMatchObject({ DECODE_TIMEOUT_MS: 8000, DECODE_MAX_RSS_MB: 700 });
    try {
      parseConfig({ DECODE_TIMEOUT_MS: '10', DECODE_MAX_RSS_MB: 'lots', DECODE_PROCESSES: '0' });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).problems.map((p) => p.split(':')[0]).sort()).toEqual(['DECODE_MAX_RSS_MB', 'DECODE_PROCESSES', 'DECODE_TIMEOUT_MS']);
    }
  });
});

describe('heicImageSizes', () => {
  it('reads the ispe sizes from the header', () => {
    expect(heicImageSizes(heicClaiming(4032, 3024))).toEqual([{ width: 4032, height: 3024 }]);
    expect(heicImageSizes(heicClaiming(30_000, 20_000))).toEqual([{ width: 30_000, height: 20_000 }]);
  });

  it('finds nothing in what has no meta box, or a broken one', async () => {
    expect(heicImageSizes(Buffer.concat([Buffer.from('\0\0\0\x18ftypheic\0\0\0\0mif1heic'), Buffer.alloc(200)]))).toEqual([]);
    const truncated = heicClaiming(4032, 3024).subarray(0, 60);
    expect(heicImageSizes(truncated)).toEqual([]);
    expect(heicImageSizes(await readFile(new URL(import.meta.url)))).toEqual([]);
  });
});
