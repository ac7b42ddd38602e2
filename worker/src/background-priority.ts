import os from 'node:os';
import { fileURLToPath } from 'node:url';

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
export function lowerThisThread(): boolean {
  try {
    os.setPriority(BACKGROUND_NICE);
    return true;
  } catch {
    return false;
  }
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
