import cluster from 'node:cluster';
import type { AddressInfo } from 'node:net';
import { startApiServer, type ApiServer } from '@receipts/api';
import {
  createLogger,
  joinClusterMetrics,
  loadConfigOrExit,
  onStopSignal,
  openRuntime,
  startHealthServer,
  type Config,
  type Logger,
} from '@receipts/infra';
import type { ReceiptWorkerHandle } from '@receipts/worker';
import { apiProcessIndex, superviseApiProcesses } from './api-cluster.js';
import { printReadyLine } from './ready-line.js';
import { exitOnSetupError } from './setup-error.js';

// The process entry: runs the roles named in ROLES; the embedded default (PGlite) runs api and
// worker together. The api and worker packages know nothing of each other; only this composes them.
const config = loadConfigOrExit();
const log = createLogger({ level: config.LOG_LEVEL, role: config.ROLES.join('+') });
if (config.API_PROCESSES > 1 && cluster.isPrimary) await superviseApiProcesses(config, log);
else await serve(config, log);

async function serve(config: Config, log: Logger): Promise<void> {
  const runtime = await openRuntime(config, log).catch(exitOnSetupError);

  const index = apiProcessIndex();
  // A scrape taken by any api process of a cluster reports them all.
  if (cluster.isWorker) joinClusterMetrics();
  // In a cluster, one api process receives the mail intake (its SMTP port or IMAP mailbox).
  const api: ApiServer | null = config.ROLES.includes('api') ? await startApiServer(runtime, { intake: index === 0 }) : null;
  // Loaded only for the worker role: pdfjs' legacy build replaces Array.prototype.push with a slow
  // polyfill process-wide, which costs an api-only process a factor of two on large exports.
  const worker: ReceiptWorkerHandle | null = config.ROLES.includes('worker') ? await startWorker() : null;
  const health = api ? null : await startHealthServer(runtime, config.WORKER_HEALTH_PORT);

  async function startWorker(): Promise<ReceiptWorkerHandle> {
    const { lowerWholeProcess, startReceiptWorker } = await import('@receipts/worker');
    // A worker-only process is background work throughout; beside an api the pipeline runs on a
    // thread of its own, which lowers itself with its OCR.
    if (!api) lowerWholeProcess(log);
    return startReceiptWorker(runtime, { pipelineThread: api !== null });
  }

  if (api) {
    const { port } = api.server.address() as AddressInfo;
    log.info({ port, roles: config.ROLES, database: runtime.database.kind, ...(cluster.isWorker ? { apiProcess: index } : {}) }, 'service started');
    // A cluster's ready line is its supervisor's, once every process listens.
    if (cluster.isPrimary) printReadyLine(port);
  }

  onStopSignal(log, 'shutting down', () => {
    void (async () => {
      // Both drain at once: the api's requests in flight, the worker's active jobs.
      await Promise.all([api?.close(), worker?.close()]);
      health?.close();
      await runtime.close();
      process.exit(0);
    })();
  });
}
