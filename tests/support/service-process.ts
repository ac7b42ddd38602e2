import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
export const receiptsDir = path.resolve(repoRoot, '../shared/receipts');

export interface ServiceProcess {
  role: 'api' | 'worker';
  proc: ChildProcess;
  /** HTTP port of an api process. */
  port: number | null;
  /** Everything the process printed, for diagnosing a failed test. */
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts the built service (roles from env) or worker entry point as a child process. */
export async function startServiceProcess(role: 'api' | 'worker', env: Record<string, string>): Promise<ServiceProcess> {
  const entry = path.join(repoRoot, role === 'api' ? 'server/dist/main.js' : 'worker/dist/main.js');
  const proc = spawn(process.execPath, [entry], {
    cwd: repoRoot,
    env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  const ready = role === 'api' ? /Receipts service ready: http:\/\/localhost:(\d+)/ : /Receipts worker ready/;
  const port = await new Promise<number | null>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${role} did not start in time:\n${out}`)), 180_000);
    const check = () => {
      const match = ready.exec(out);
      if (match) {
        clearTimeout(timer);
        proc.stdout!.off('data', check);
        resolve(match[1] ? Number(match[1]) : null);
      }
    };
    proc.stdout!.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${role} exited with ${code} before starting:\n${out}`));
    });
  });
  return {
    role,
    proc,
    port,
    output: () => out,
    async stop(signal = 'SIGTERM') {
      if (proc.exitCode !== null || proc.signalCode !== null) return proc.exitCode;
      proc.kill(signal);
      return exited;
    },
  };
}
