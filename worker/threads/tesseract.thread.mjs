// tesseract.js's own worker script, run in a thread below the api's priority (see
// worker/src/process/background-priority.ts). Plain JavaScript so the same file serves the built
// worker and its sources under tsx (tesseract.js starts it by path, with no loader).
import os from 'node:os';

try {
  os.setPriority(10); // BACKGROUND_NICE
} catch {
  // Not permitted here: the thread runs at the service's priority (slower answers under load, nothing wrong).
}
await import('tesseract.js/src/worker-script/node/index.js');
