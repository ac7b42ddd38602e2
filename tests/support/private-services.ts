import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chown, mkdtemp, readdir, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port.js';
import { until } from './until.js';

const run = promisify(execFile);


async function answersOn(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

/**
 * A redis-server of the test's own on a free port, so stopping it disturbs nobody else. No
 * persistence: a restart loses every job, the harshest case for the service.
 */
export class PrivateRedis {
  private child: ChildProcess | null = null;
  private constructor(
    readonly port: number,
    private readonly dir: string,
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  static async start(): Promise<PrivateRedis> {
    const redis = new PrivateRedis(await freePort(), await mkdtemp(path.join(os.tmpdir(), 'receipts-redis-')));
    await redis.resume();
    return redis;
  }

  async resume(): Promise<void> {
    this.child = spawn(
      'redis-server',
      ['--bind', '127.0.0.1', '--port', String(this.port), '--dir', this.dir, '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    await until(() => answersOn(this.port), Boolean, `redis on ${this.port}`);
  }

  /** Kills the server (as a crash or an OOM kill would): everything it held is gone. */
  /** Started again if a test halted it and did not get as far as resuming it. */
  async ensureRunning(): Promise<void> {
    if (!this.child) await this.resume();
  }

  async halt(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    this.child = null;
  }

  async stop(): Promise<void> {
    await this.halt();
    await rm(this.dir, { recursive: true, force: true });
  }
}

/**
 * A PostgreSQL cluster of the test's own (initdb into a temporary directory, trust auth, a free
 * port). PostgreSQL refuses to run as root, so as root the cluster belongs to `postgres`.
 */
export class PrivatePostgres {
  private constructor(
    readonly port: number,
    private readonly dir: string,
    private readonly bin: string,
  ) {}

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  static async start(): Promise<PrivatePostgres> {
    const versions = (await readdir('/usr/lib/postgresql')).sort((a, b) => Number(b) - Number(a));
    if (versions.length === 0) throw new Error('PostgreSQL server binaries not found under /usr/lib/postgresql');
    const bin = `/usr/lib/postgresql/${versions[0]}/bin`;
    const dir = await mkdtemp(path.join(os.tmpdir(), 'receipts-pg-'));
    if (process.getuid?.() === 0) {
      const { stdout } = await run('id', ['-u', 'postgres']);
      const { stdout: gid } = await run('id', ['-g', 'postgres']);
      await chown(dir, Number(stdout), Number(gid));
    }
    const pg = new PrivatePostgres(await freePort(), dir, bin);
    await pg.as('initdb', ['-D', path.join(dir, 'data'), '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
    await pg.resume();
    return pg;
  }

  private as(tool: string, args: string[]) {
    const command = path.join(this.bin, tool);
    return process.getuid?.() === 0 ? run('runuser', ['-u', 'postgres', '--', command, ...args]) : run(command, args);
  }

  async resume(): Promise<void> {
    await this.as('pg_ctl', [
      'start', '-w', '-D', path.join(this.dir, 'data'), '-l', path.join(this.dir, 'log'),
      '-o', `-p ${this.port} -h 127.0.0.1 -k ${this.dir} -c fsync=off -c max_connections=100`,
    ]);
    await until(() => answersOn(this.port), Boolean, `postgres on ${this.port}`);
  }

  /** Started again if a test halted it and did not get as far as resuming it. */
  async ensureRunning(): Promise<void> {
    if (!(await answersOn(this.port))) await this.resume();
  }

  /** A fast shutdown: open connections are terminated, new ones refused. */
  async halt(): Promise<void> {
    await this.as('pg_ctl', ['stop', '-w', '-m', 'fast', '-D', path.join(this.dir, 'data')]);
  }

  async stop(): Promise<void> {
    await this.as('pg_ctl', ['stop', '-w', '-m', 'immediate', '-D', path.join(this.dir, 'data')]).catch(() => undefined);
    await rm(this.dir, { recursive: true, force: true });
  }
}
