import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts a worker thread running the module `name` beside the module at `callerUrl` (pass
 * `import.meta.url`): its built `.js`, or, when the caller runs from its TypeScript sources (under
 * vitest or tsx), its `.ts` through tsx. Node 20 ignores `--import tsx` in a worker's execArgv, so
 * a bootstrap imports the entry through tsx's API instead.
 */
export function startModuleThread(callerUrl: string, name: string, options: WorkerOptions = {}): Worker {
  const caller = fileURLToPath(callerUrl);
  const fromSources = caller.endsWith('.ts');
  const entry = path.join(path.dirname(caller), `${name}${fromSources ? '.ts' : '.js'}`);
  if (!fromSources) return new Worker(entry, options);
  const tsx = import.meta.resolve('tsx/esm/api');
  const url = pathToFileURL(entry).href;
  const bootstrap = `import(${JSON.stringify(tsx)}).then(({ tsImport }) => tsImport(${JSON.stringify(url)}, ${JSON.stringify(url)}))`;
  return new Worker(bootstrap, { ...options, eval: true });
}
