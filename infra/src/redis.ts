import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Redis, type RedisOptions } from 'ioredis';

/**
 * A connection for BullMQ workers and subscribers: commands wait through reconnects
 * (BullMQ requires maxRetriesPerRequest null for blocking commands).
 */
export function createRedis(url: string, options: RedisOptions = {}): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, ...options });
}

/**
 * A connection for request handlers: with Redis down, a command fails at once instead of
 * queueing, so the api can answer 503 rather than hang.
 */
export async function connectProducerRedis(url: string): Promise<Redis> {
  const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2_000 });
  // Without an offline queue, commands before the first connect would fail: wait for it.
  await new Promise<void>((resolve, reject) => {
    redis.once('ready', resolve);
    redis.once('error', reject);
  });
  return redis;
}

async function answers(url: string): Promise<boolean> {
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1_000, retryStrategy: () => null });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    await probe.ping();
    return true;
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

function isLocal(url: URL): boolean {
  return ['127.0.0.1', 'localhost', '::1', '[::1]'].includes(url.hostname);
}

export class RedisUnavailableError extends Error {}

/**
 * Makes sure Redis answers at `url`. For a local URL with nothing listening, starts
 * `redis-server` under `dataDir` as a child of this process (the embedded default);
 * otherwise explains how to get one.
 */
export async function ensureRedis(url: string, options: { dataDir: string; autostart: boolean }): Promise<ChildProcess | null> {
  if (await answers(url)) return null;
  const parsed = new URL(url);
  const howTo =
    `No Redis answers at ${url}. Start one with:\n` +
    `  redis-server --daemonize yes --bind 127.0.0.1 --port ${parsed.port || 6379}\n` +
    `(Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis), or set REDIS_URL.`;
  if (!options.autostart || !isLocal(parsed)) throw new RedisUnavailableError(howTo);
  const dir = path.resolve(options.dataDir, 'redis');
  await mkdir(dir, { recursive: true });
  const child = spawn(
    'redis-server',
    ['--bind', '127.0.0.1', '--port', parsed.port || '6379', '--dir', dir, '--save', '', '--appendonly', 'yes'],
    { stdio: 'ignore' },
  );
  const started = await new Promise<boolean>((resolve) => {
    child.once('error', () => resolve(false));
    const deadline = Date.now() + 5_000;
    const poll = async () => {
      if (await answers(url)) return resolve(true);
      if (Date.now() > deadline || child.exitCode !== null) return resolve(false);
      setTimeout(poll, 100);
    };
    void poll();
  });
  if (!started) {
    child.kill();
    throw new RedisUnavailableError(`${howTo}\n(redis-server could not be started from the PATH.)`);
  }
  return child;
}
