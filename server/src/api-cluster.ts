import cluster, { type Worker } from 'node:cluster';
import type { AddressInfo } from 'node:net';
import { ensureRedis, gatherClusterMetrics, onStopSignal, type Config, type Logger } from '@receipts/infra';
import { printReadyLine } from './ready-line.js';
import { exitOnSetupError } from './setup-error.js';

/** The environment variable that tells an api process its place (0 … API_PROCESSES − 1). */
export const API_PROCESS_INDEX = 'API_PROCESS_INDEX';
/** A process that ended after start-up is replaced after this long (not in a tight loop if it keeps failing). */
const RESTART_DELAY_MS = 1_000;

/** This process's place among the api processes of a cluster; 0 when it is the only one. */
export function apiProcessIndex(): number {
  return cluster.isWorker ? Number(process.env[API_PROCESS_INDEX] ?? 0) : 0;
}

/**
 * API_PROCESSES > 1: this process only supervises that many api processes, which share its port
 * (node:cluster hands each new connection to the next process). Accepting an upload is a few
 * milliseconds on one event loop; a burst of them, beside OCR, is then served by every core.
 * Live progress reaches every process over Redis, and browsers hold their socket over one
 * WebSocket, so nothing needs a connection to come back to the same process.
 *
 * The ready line is printed once every process listens. A process that fails before that stops
 * the whole service (a bad setting fails them all); one that ends later is logged and replaced.
 * SIGTERM/SIGINT stop every process (each drains its requests) and then this one.
 */
export async function superviseApiProcesses(config: Config, log: Logger): Promise<void> {
  // One Redis for all of them, started here when asked (each process racing to start it would not do).
  const redisChild = await ensureRedis(config.REDIS_URL, { dataDir: config.DATA_DIR, autostart: config.REDIS_AUTOSTART }).catch(exitOnSetupError);
  if (redisChild) log.info({ url: config.REDIS_URL }, 'started a local redis-server under the data directory');

  const env = { REDIS_AUTOSTART: 'false' };
  const listening = new Set<number>();
  let ready = false;
  let stopping = false;
  const fork = (index: number): Worker => {
    const worker = cluster.fork({ ...env, [API_PROCESS_INDEX]: String(index) });
    worker.on('listening', (address: AddressInfo) => {
      listening.add(index);
      if (ready || listening.size < config.API_PROCESSES) return;
      ready = true;
      log.info({ port: address.port, processes: config.API_PROCESSES }, 'service started');
      printReadyLine(address.port);
    });
    worker.on('exit', (code, signal) => {
      listening.delete(index);
      if (stopping) return;
      if (!ready) {
        log.error({ index, code, signal }, 'an api process ended while starting; stopping the service');
        stopAll(code || 1);
        return;
      }
      log.error({ index, code, signal }, 'an api process ended; starting another in its place');
      setTimeout(() => {
        if (!stopping) fork(index);
      }, RESTART_DELAY_MS);
    });
    return worker;
  };

  const stopAll = (exitCode: number) => {
    stopping = true;
    const alive = Object.values(cluster.workers ?? {}).filter((w): w is Worker => Boolean(w) && !w!.isDead());
    let left = alive.length;
    const done = () => {
      redisChild?.kill();
      process.exit(exitCode);
    };
    if (left === 0) return done();
    for (const worker of alive) {
      worker.once('exit', () => {
        if (--left === 0) done();
      });
      worker.process.kill('SIGTERM');
    }
  };

  gatherClusterMetrics();
  onStopSignal(log, 'shutting down the api processes', () => stopAll(0));
  for (let index = 0; index < config.API_PROCESSES; index++) fork(index);
}
