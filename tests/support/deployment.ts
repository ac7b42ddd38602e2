import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.js';
import { serviceChildrenOf } from './process-output.js';
import { startS3StandIn, type S3StandIn } from './s3-stand-in.js';
import { provisionServices, type TestServices } from './services.js';
import { startServiceProcess, type ServiceProcess } from './service-process.js';

export type DeploymentMode = 'pglite' | 'postgres';

export interface DeploymentOptions {
  /**
   * Where originals go: a directory under DATA_DIR (the default), or a bucket of an S3 stand-in
   * on 127.0.0.1, each worker then with a DATA_DIR of its own, as on a host of its own.
   */
  storage?: 'local' | 's3';
  /** With `storage: 's3'`: each PUT waits this long before it reaches the bucket. */
  s3PutDelayMs?: number;
  /** `postgres` only: api processes sharing the api's port (API_PROCESSES); 1 by default. */
  apiProcesses?: number;
}

/**
 * The built service as real processes: `pglite` is the embedded default (api and worker in
 * one process); `postgres` runs the api and each worker as processes of their own.
 */
export class Deployment {
  private api!: ServiceProcess;
  /** Worker processes and extra api processes. */
  private others: ServiceProcess[] = [];
  baseUrl = '';

  private constructor(
    readonly mode: DeploymentMode,
    readonly services: TestServices,
    /** The environment every process of this deployment gets (DATA_DIR, REDIS_URL, prefix, …). */
    readonly env: Record<string, string>,
    private readonly dataDir: string,
    /** The bucket's server, with `storage: 's3'`. */
    readonly s3: S3StandIn | null,
    private readonly apiProcesses = 1,
  ) {}

  static async start(mode: DeploymentMode, overrides: Record<string, string> = {}, options: DeploymentOptions = {}): Promise<Deployment> {
    const services = await provisionServices();
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'receipts-test-'));
    const s3 = options.storage === 's3' ? await startS3StandIn({ putDelayMs: options.s3PutDelayMs }) : null;
    const env: Record<string, string> = {
      PORT: String(await freePort()),
      HOST: '127.0.0.1',
      REDIS_URL: services.redisUrl,
      REDIS_AUTOSTART: 'false',
      QUEUE_PREFIX: services.prefix,
      DATA_DIR: dataDir,
      WORKER_CONCURRENCY: '2',
      // Short enough that a killed worker's job comes back within seconds, long enough that a test
      // machine with every core busy does not let a live job's lock lapse (at 4 s it did, and
      // jobs started over and over: the soak's "no progress" on a loaded machine).
      JOB_LOCK_MS: '10000',
      STALLED_CHECK_MS: '2000',
      SHUTDOWN_TIMEOUT_MS: '300',
      WORKER_HEALTH_PORT: '0',
      // Test visitors stand for clients behind a proxy on loopback, each with its own address.
      TRUST_PROXY: 'loopback',
      // An answer the API document does not describe fails the test that meets it (a 500).
      CHECK_API_ANSWERS: 'true',
      ...(mode === 'postgres' ? { DATABASE_URL: services.databaseUrl } : {}),
      ...s3?.env,
      ...overrides,
    };
    const deployment = new Deployment(mode, services, env, dataDir, s3, options.apiProcesses);
    try {
      await deployment.startApi();
      if (mode === 'postgres') await deployment.startWorker();
    } catch (err) {
      await deployment.stop();
      throw err;
    }
    return deployment;
  }

  private async startApi(): Promise<void> {
    const roles: Record<string, string> = this.mode === 'pglite' ? { ROLES: 'api,worker' } : { ROLES: 'api', API_PROCESSES: String(this.apiProcesses) };
    this.api = await startServiceProcess('api', { ...this.env, ...roles });
    this.baseUrl = `http://127.0.0.1:${this.api.port}`;
  }

  async startWorker(): Promise<ServiceProcess> {
    if (this.mode === 'pglite') throw new Error('the embedded mode has no separate worker');
    // With a bucket, nothing on disk is shared: the worker's data folder is its own.
    const env = this.s3 ? { ...this.env, DATA_DIR: await mkdtemp(path.join(this.dataDir, 'worker-')) } : this.env;
    const worker = await startServiceProcess('worker', env);
    this.others.push(worker);
    return worker;
  }

  /** Another api process on the same database and Redis (any number can run). */
  async startExtraApi(): Promise<string> {
    const api = await startServiceProcess('api', { ...this.env, PORT: String(await freePort()), ROLES: 'api' });
    this.others.push(api);
    return `http://127.0.0.1:${api.port}`;
  }

  /** Stops the api process (SIGTERM by default) and says how it exited; `postgres` only (in the embedded mode it is the worker too). */
  async stopApi(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    return this.api.stop(signal);
  }

  /** Stops whatever runs the worker role (in the embedded mode, the whole process); SIGKILL by default. */
  async killWorker(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    if (this.mode === 'pglite') {
      await this.api.stop(signal);
      return;
    }
    const worker = this.others.find((p) => p.role === 'worker')!;
    this.others.splice(this.others.indexOf(worker), 1);
    await worker.stop(signal);
  }

  /** Brings the worker role back (embedded: restarts the process on the same port and data). */
  async restartWorker(): Promise<void> {
    if (this.mode === 'pglite') await this.startApi();
    else await this.startWorker();
  }

  /** The pids of the api processes (with API_PROCESSES, the supervisor first) and of the worker processes. */
  pids(): { api: number[]; workers: number[] } {
    const api = this.api.proc.pid!;
    return {
      api: [api, ...serviceChildrenOf(api)],
      workers: this.others.filter((p) => p.role === 'worker').map((p) => p.proc.pid!),
    };
  }

  output(): string {
    return [this.api, ...this.others].map((p) => p.output()).join('\n');
  }

  async stop(): Promise<void> {
    await Promise.all([this.api, ...this.others].filter(Boolean).map((p) => p.stop('SIGTERM')));
    await this.services.cleanup();
    await this.s3?.close();
    await rm(this.dataDir, { recursive: true, force: true });
  }
}
