import { randomBytes, randomUUID } from 'node:crypto';
import type { UploadBusMessage } from '@receipts/common';
import { connectProducerRedis, createLogger, UploadEventBus } from '@receipts/infra';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SocketGateway } from './socket.gateway.js';
import { routeUploadEvents, type UploadEventRouting } from './upload-events.router.js';
import { UploadWaiters } from './uploads/upload-waiters.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

// Real Redis pub/sub on a channel of this run's own; the sockets are a recording stand-in. The
// wait outlasts the test, so only the event can end it.
describe('routing upload events', { timeout: 30_000 }, () => {
  const forwarded: UploadBusMessage[] = [];
  const gateway = { forward: (m: UploadBusMessage) => forwarded.push(m) } as unknown as SocketGateway;
  const waiters = new UploadWaiters();
  let publisher: Redis;
  let bus: UploadEventBus;
  let routing: UploadEventRouting;

  beforeAll(async () => {
    publisher = await connectProducerRedis(REDIS_URL);
    bus = new UploadEventBus(publisher, `test-${randomBytes(5).toString('hex')}`);
    routing = await routeUploadEvents(bus, REDIS_URL, createLogger({ level: 'silent', role: 'test' }), { gateway, waiters });
  });

  afterAll(async () => {
    await routing?.close();
    publisher?.disconnect();
  });

  it("sends each event to the owner's room and wakes the requests waiting for its upload", async () => {
    const id = randomUUID();
    const waiting = waiters.waitFor(id, 60_000);
    const woken = vi.fn();
    void waiting.done.then(woken);
    await bus.publish('anon:a', 'upload:progress', { id, progress: 10, step: 'loaded' });
    await vi.waitFor(() => expect(forwarded).toHaveLength(1));
    expect(woken).not.toHaveBeenCalled();
    await bus.publish('anon:a', 'upload:failed', { id, error: 'Could not read the file' });
    await waiting.done;
    expect(forwarded).toEqual([
      { room: 'anon:a', event: 'upload:progress', payload: { id, progress: 10, step: 'loaded' } },
      { room: 'anon:a', event: 'upload:failed', payload: { id, error: 'Could not read the file' } },
    ]);
  });
});
