import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Logger } from '@receipts/infra';

/**
 * OCR and decoding run below the api's priority: accepting an upload is milliseconds of work
 * that must not queue behind seconds of recognition on a saturated host (CFS gives a nice-10
 * thread about a tenth of a contended core, and all of an idle one).
 */
export const BACKGROUND_NICE = 10;

/**
 * Lowers the calling thread. Linux keeps the nice value per thread and a thread it starts
 * inherits it, so an OCR thread lowers itself and nothing else. Where that is not allowed the
 * work runs at the service's priority: slower answers under load, nothing wrong.
 */
export function lowerThisThread(nice = BACKGROUND_NICE): boolean {
  try {
    os.setPriority(nice);
    return true;
  } catch {
    return false;
  }
}

/**
 * A worker-only process's own priority: below an api on the same host, above its OCR. Its event
 * loop claims jobs, writes progress and renews job locks, and should not wait behind the
 * recognition it schedules.
 */
export const WORKER_NICE = 5;

/**
 * Lowers every thread of this process to WORKER_NICE, for a process that does nothing but
 * background work (a worker-only process): its event loop, V8's helper threads, and the threads
 * started later, which inherit the value (libuv's pool, libvips's); OCR threads and processes
 * lower themselves further, to BACKGROUND_NICE. Page clean-up with sharp and the pipeline's own
 * steps otherwise ran at the api's priority on a shared host. Where Linux's per-thread list is
 * not there or lowering is not allowed, the process runs at the service's priority and says so;
 * false then.
 */
export function lowerWholeProcess(log: Logger): boolean {
  const lowered = lowerEveryThread();
  if (!lowered) log.warn("could not lower the worker process's priority; OCR competes with an api on the same host");
  return lowered;
}

/** Set once every thread was lowered: threads started later inherit WORKER_NICE. */
let wholeProcessLowered = false;

function lowerEveryThread(): boolean {
  const result = lowerThreads(() => true);
  if (!result) return lowerThisThread(WORKER_NICE);
  wholeProcessLowered = result.failed === 0;
  return wholeProcessLowered;
}

/**
 * Sets the threads of this process that `select` picks and that run above WORKER_NICE to it;
 * null where Linux's per-thread list is not there.
 */
function lowerThreads(select: (tid: string) => boolean): { lowered: number; failed: number } | null {
  let threads: string[];
  try {
    threads = readdirSync('/proc/self/task');
  } catch {
    return null;
  }
  let lowered = 0;
  let failed = 0;
  for (const tid of threads) {
    try {
      if (!select(tid) || os.getPriority(Number(tid)) >= WORKER_NICE) continue;
      os.setPriority(Number(tid), WORKER_NICE);
      lowered++;
    } catch {
      // Gone since the listing, or not allowed: it runs at the service's priority.
      failed++;
    }
  }
  return { lowered, failed };
}

/** What libvips (sharp) names the threads it computes images on. */
const IMAGE_THREAD = 'libvips worker';

/**
 * Lowers libvips's threads to WORKER_NICE where they run above it, and returns how many it
 * lowered: page clean-up with sharp, beside an api in one process (the embedded mode), otherwise
 * competed with HTTP at the api's priority. libvips starts them on demand from libuv's pool, whose
 * threads stay at the api's priority for its file and crypto work (they are not named apart from
 * V8's own), and a thread keeps its value; so this runs after each document's clean-up and lowers
 * the threads started since. In a worker-only process they are at WORKER_NICE already, and this
 * reads nothing.
 */
export function lowerImageThreads(): number {
  if (wholeProcessLowered) return 0;
  return lowerThreads((tid) => readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim() === IMAGE_THREAD)?.lowered ?? 0;
}

/**
 * Lowers a process this one started (a decoder, a tesseract program). Linux sets the nice value
 * of the process's main thread, which the threads it starts afterwards inherit. Returns why not
 * where that is not allowed: the process then runs at the service's priority.
 */
export function lowerProcess(pid: number | undefined): Error | undefined {
  if (pid === undefined) return undefined;
  try {
    os.setPriority(pid, BACKGROUND_NICE);
    return undefined;
  } catch (err) {
    return err as Error;
  }
}

/** tesseract.js's worker script started at BACKGROUND_NICE (the same path from src/ and dist/). */
export const TESSERACT_THREAD = fileURLToPath(new URL('../threads/tesseract.thread.mjs', import.meta.url));
