import type { AddressInfo } from 'node:net';
import { createLogger, loadConfigOrExit, onStopSignal, openRuntime, startHealthServer } from '@receipts/infra';
import { lowerWholeProcess } from './process/background-priority.js';
import { startReceiptWorker } from './receipt.worker.js';

// A worker-only process: any number of them against a PostgreSQL server (DATABASE_URL). All of
// it is background work, below the priority of an api on the same host.
const config = loadConfigOrExit({ ...process.env, ROLES: 'worker' });
const log = createLogger({ level: config.LOG_LEVEL, role: 'worker' });
lowerWholeProcess(log);
const runtime = await openRuntime(config, log);
const health = await startHealthServer(runtime, config.WORKER_HEALTH_PORT);
const handle = await startReceiptWorker({ ...runtime });
const { port } = health.address() as AddressInfo;
process.stdout.write(`Receipts worker ready (concurrency ${config.WORKER_CONCURRENCY}; /healthz, /readyz and /metrics on port ${port})\n`);

onStopSignal(log, 'draining: finishing active jobs', () => {
  void handle
    .close()
    .then(() => runtime.close())
    .finally(() => {
      health.close();
      process.exit(0);
    });
});
