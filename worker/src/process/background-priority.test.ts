import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { BACKGROUND_NICE, WORKER_NICE } from './background-priority.js';

const run = promisify(execFile);
const perThreadNice = existsSync('/proc/self/task');

/**
 * A fresh node process lowers itself, starts a thread and a libuv pool job afterwards, and
 * reports every thread's nice value as Linux keeps it.
 */
const script = `
  import { readdirSync, readFileSync } from 'node:fs';
  import { readFile } from 'node:fs/promises';
  import { Worker } from 'node:worker_threads';
  import { lowerWholeProcess } from './src/process/background-priority.ts';
  const niceOf = (tid) => Number(readFileSync('/proc/self/task/' + tid + '/stat', 'utf8').split(') ')[1].split(' ')[16]);
  const before = readdirSync('/proc/self/task').map(niceOf);
  const warnings = [];
  const lowered = lowerWholeProcess({ warn: (message) => warnings.push(message) });
  await readFile(process.execPath, { length: 1 }).catch(() => undefined); // starts libuv's pool threads if none ran yet
  const thread = new Worker('setTimeout(() => {}, 200)', { eval: true });
  await new Promise((r) => thread.once('online', r));
  const after = readdirSync('/proc/self/task').map(niceOf);
  await thread.terminate();
  console.log(JSON.stringify({ lowered, warnings, before, after }));
`;

describe.skipIf(!perThreadNice)('lowerWholeProcess', () => {
  it('lowers every thread of the process, and threads started afterwards inherit it', async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: new URL('../..', import.meta.url).pathname });
    const { lowered, warnings, before, after } = JSON.parse(stdout.trim().split('\n').at(-1)!) as { lowered: boolean; warnings: string[]; before: number[]; after: number[] };
    expect(lowered).toBe(true);
    expect(warnings).toEqual([]);
    // The test runner's own priority, whatever it is, is above the worker's.
    expect(before.every((n) => n < WORKER_NICE)).toBe(true);
    expect(after.length).toBeGreaterThan(before.length);
    expect(after.every((n) => n === WORKER_NICE)).toBe(true);
  });
});

/** A fresh node process computes an image with sharp (libvips starts its threads), then lowers them. */
const imageScript = `
  import { readdirSync, readFileSync } from 'node:fs';
  import sharp from 'sharp';
  import { lowerImageThreads, lowerWholeProcess } from './src/process/background-priority.ts';
  // A worker-only process: every thread at WORKER_NICE first.
  if (process.env.WHOLE) lowerWholeProcess({ warn: () => undefined });
  const threads = () => readdirSync('/proc/self/task').map((tid) => ({
    tid,
    name: readFileSync('/proc/self/task/' + tid + '/comm', 'utf8').trim(),
    nice: Number(readFileSync('/proc/self/task/' + tid + '/stat', 'utf8').split(') ')[1].split(' ')[16]),
  }));
  const image = () => sharp({ create: { width: 1500, height: 1500, channels: 3, background: '#ffffff' } }).blur(3).png().toBuffer();
  await image();
  const before = threads();
  const lowered = lowerImageThreads();
  const again = lowerImageThreads();
  await image();
  const after = threads();
  // A busy host can make libvips start another thread for the second image: the next call takes it.
  const started = lowerImageThreads();
  console.log(JSON.stringify({ lowered, again, before, after, started, last: threads() }));
`;

type Thread = { tid: string; name: string; nice: number };

/** Runs imageScript in a fresh node process (with `env` added) and returns its report. */
async function runImageScript(env: Record<string, string> = {}) {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', imageScript], {
    cwd: new URL('../..', import.meta.url).pathname,
    env: { ...process.env, ...env },
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as { lowered: number; again: number; started: number; before: Thread[]; after: Thread[]; last: Thread[] };
}

describe.skipIf(!perThreadNice)('lowerImageThreads', () => {
  it("lowers libvips's threads, with OCR, and nothing else, once", async () => {
    const { lowered, again, started, before, after, last } = await runImageScript();
    const images = (list: Thread[]) => list.filter((t) => t.name === 'libvips worker');
    expect(images(before).length).toBeGreaterThan(0);
    expect(images(before).every((t) => t.nice < BACKGROUND_NICE)).toBe(true);
    expect(lowered).toBe(images(before).length);
    expect(again).toBe(0);
    // The threads lowered computed the second image at the lower priority; the others kept theirs.
    const loweredTids = new Set(images(before).map((t) => t.tid));
    expect(images(after).filter((t) => loweredTids.has(t.tid)).every((t) => t.nice === BACKGROUND_NICE)).toBe(true);
    // Any libvips thread started since is lowered by the next call, and then every one is at BACKGROUND_NICE.
    expect(started).toBe(images(after).filter((t) => t.nice < BACKGROUND_NICE).length);
    expect(images(last).every((t) => t.nice === BACKGROUND_NICE)).toBe(true);
    const others = (list: Thread[]) => list.filter((t) => t.name !== 'libvips worker').map((t) => t.nice);
    expect(others(last).every((n) => n < BACKGROUND_NICE)).toBe(true);
  });

  it('takes them from WORKER_NICE to BACKGROUND_NICE in a worker-only process, its other threads left at WORKER_NICE', async () => {
    const { lowered, before, last } = await runImageScript({ WHOLE: '1' });
    const images = before.filter((t) => t.name === 'libvips worker');
    expect(images.length).toBeGreaterThan(0);
    expect(images.every((t) => t.nice === WORKER_NICE)).toBe(true);
    expect(lowered).toBe(images.length);
    expect(last.filter((t) => t.name === 'libvips worker').every((t) => t.nice === BACKGROUND_NICE)).toBe(true);
    expect(last.filter((t) => t.name !== 'libvips worker').every((t) => t.nice === WORKER_NICE)).toBe(true);
  });
});
