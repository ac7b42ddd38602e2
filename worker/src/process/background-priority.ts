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
 * started later, which inherit the value (libuv's pool); OCR threads and processes, and libvips's
 * (lowerImageThreads), go further, to BACKGROUND_NICE. The pipeline's own steps otherwise ran at
 * the api's priority on a shared host. Where Linux's per-thread list is
 * not there or lowering is not allowed, the process runs at the service's priority and says so;
 * false then.
 */
export function lowerWholeProcess(log: Logger): boolean {
  const lowered = lowerEveryThread();
  if (!lowered) log.warn("could not lower the worker process's priority; OCR competes with an api on the same host");
  return lowered;
}

function lowerEveryThread(): boolean {
  const result = lowerThreads(() => true, WORKER_NICE);
  if (!result) return lowerThisThread(WORKER_NICE);
  return result.failed === 0;
}

/**
 * Sets the threads of this process that `select` picks and that run above `nice` to it; null
 * where Linux's per-thread list is not there.
 */
function lowerThreads(select: (tid: string) => boolean, nice: number): { lowered: number; failed: number } | null {
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
      if (!select(tid) || os.getPriority(Number(tid)) >= nice) continue;
      os.setPriority(Number(tid), nice);
      lowered++;
    } catch {
      // Gone since the listing, or not allowed: it runs at the process's priority.
      failed++;
    }
  }
  return { lowered, failed };
}

/** What libvips (sharp) names the threads it computes images on. */
const IMAGE_THREAD = 'libvips worker';

/**
 * Lowers libvips's threads to BACKGROUND_NICE, with OCR, where they run above it, and returns how
 * many it lowered: page clean-up with sharp is seconds of pixel work like recognition, and at the
 * process's priority it competed with HTTP (an api in the same process, the embedded mode, or on
 * the same host: a worker-only process's clean-up took 40-60 CPU-ms of each busy burst of 50
 * uploads at nice 5). libvips starts them on demand from libuv's pool, whose threads keep the
 * process's priority for its file and crypto work (they are not named apart from V8's own), and a
 * thread keeps its value; so this runs after each document's clean-up and lowers the threads
 * started since.
 */
export function lowerImageThreads(): number {
  return lowerThreads((tid) => readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim() === IMAGE_THREAD, BACKGROUND_NICE)?.lowered ?? 0;
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
export const TESSERACT_THREAD = fileURLToPath(new URL('../../threads/tesseract.thread.mjs', import.meta.url));
