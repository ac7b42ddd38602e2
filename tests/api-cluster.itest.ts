import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Deployment } from './support/deployment.js';
import { freePort } from './support/free-port.js';
import { printedReceipt, PRINTED_RECEIPT_LINES } from './support/printed-receipt.js';
import { alive, logLines, serviceChildrenOf as childrenOf } from './support/process-output.js';
import { startServiceProcess, type ServiceProcess } from './support/service-process.js';
import { eventually } from './support/until.js';
import { uniqueIp, Visitor } from './support/visitor.js';

describe('API_PROCESSES=2: api processes sharing one port (PostgreSQL, a worker process of its own)', () => {
  let deployment: Deployment;
  let api: ServiceProcess;
  let baseUrl: string;

  beforeAll(async () => {
    deployment = await Deployment.start('postgres', { WORKER_CONCURRENCY: '1', METRICS_PUBLIC: 'true' });
    api = await startServiceProcess('api', { ...deployment.env, PORT: String(await freePort()), ROLES: 'api', API_PROCESSES: '2' });
    baseUrl = `http://127.0.0.1:${api.port}`;
  });

  afterAll(async () => {
    await api?.stop('SIGTERM');
    await deployment?.stop();
  });

  it('serves uploads from both processes, each followed live to its end whichever process holds the socket', async () => {
    expect(childrenOf(api.proc.pid!)).toHaveLength(2);
    const receipt = await printedReceipt(PRINTED_RECEIPT_LINES, { format: 'jpeg' });
    const visitors = Array.from({ length: 6 }, () => new Visitor(baseUrl, uniqueIp()));
    await Promise.all(visitors.map((v) => v.connect()));
    try {
      const ids = await Promise.all(visitors.map(async (v, i) => (await v.upload(receipt, `cluster-${i}.jpg`)).body.id as string));
      const ends = await Promise.all(visitors.map((v, i) => v.waitForEnd(ids[i]!, 240_000)));
      expect(ends.map((e) => e.event)).toEqual(Array(6).fill('upload:completed'));
      for (const [i, v] of visitors.entries()) expect(v.eventsFor(ids[i]!).some((e) => e.event === 'upload:progress')).toBe(true);
      const servedBy = new Set(logLines(api.output()).filter((l) => l.msg === 'request' && l.method === 'POST' && l.url === '/api/ocr').map((l) => l.pid));
      expect(servedBy.size).toBe(2);
    } finally {
      for (const v of visitors) v.close();
    }
  });

  it('answers /metrics, whichever process is scraped, with the figures of both', async () => {
    // The 6 uploads of the test before, accepted 3 or so by each process.
    for (let scrape = 0; scrape < 4; scrape++) {
      const text = await (await fetch(`${baseUrl}/metrics`)).text();
      const accepted = /^receipts_upload_size_bytes_count\{[^}]*mime_type="image\/jpeg"[^}]*\} (\d+)$/m.exec(text);
      expect(Number(accepted?.[1])).toBe(6);
      // The queue's figures, read from Redis by each process, are there once, not summed.
      expect(text.match(/^receipts_queue_jobs\{[^}]*state="failed"[^}]*\} 0$/gm)).toHaveLength(1);
    }
  });

  it('puts another process in the place of one that dies, and the port keeps answering', async () => {
    const [victim] = childrenOf(api.proc.pid!);
    process.kill(victim!, 'SIGKILL');
    await eventually(() => {
      const now = childrenOf(api.proc.pid!);
      expect(now).toHaveLength(2);
      expect(now).not.toContain(victim);
    }, 30_000);
    expect(logLines(api.output()).some((l) => l.msg === 'an api process ended; starting another in its place')).toBe(true);
    // Both processes answer: the one that stayed and the new one (once it listens).
    await eventually(async () => {
      const answers = await Promise.all(Array.from({ length: 6 }, () => fetch(`${baseUrl}/readyz`).then((r) => r.status)));
      expect(answers).toEqual(Array(6).fill(200));
    }, 30_000);
  });

  it('SIGTERM stops every api process, then the supervisor, with exit code 0', async () => {
    const processes = childrenOf(api.proc.pid!);
    expect(processes).toHaveLength(2);
    expect(await api.stop('SIGTERM')).toBe(0);
    for (const pid of processes) expect(alive(pid)).toBe(false);
  });
});

describe('API_PROCESSES: a process that cannot start', () => {
  it('stops the service with the process’s error instead of starting it again and again', async () => {
    // No database answers there: every api process fails as it starts (the supervisor opens none).
    const start = startServiceProcess('api', {
      PORT: String(await freePort()),
      HOST: '127.0.0.1',
      ROLES: 'api',
      API_PROCESSES: '2',
      DATABASE_URL: `postgres://127.0.0.1:${await freePort()}/receipts`,
      REDIS_AUTOSTART: 'false',
    });
    await expect(start).rejects.toThrow(/exited with 1 before starting[\s\S]*an api process ended while starting; stopping the service/);
  });
});
