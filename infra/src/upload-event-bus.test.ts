import { randomBytes, randomUUID } from 'node:crypto';
import { CHANNELS, type UploadBusMessage } from '@receipts/common';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Logger } from './logger.js';
import { connectProducerRedis, createRedis } from './redis.js';
import { UploadEventBus } from './upload-event-bus.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

// Real Redis pub/sub on a channel of this run's own.
describe('upload event bus', { timeout: 30_000 }, () => {
  const prefix = `test-${randomBytes(5).toString('hex')}`;
  const channel = `${prefix}:${CHANNELS.uploadEvents}`;
  const warn = vi.fn();
  const log = { warn } as unknown as Logger;
  const delivered: UploadBusMessage[] = [];
  let publisher: Redis;
  let subscriber: Redis;
  let bus: UploadEventBus;

  beforeAll(async () => {
    publisher = await connectProducerRedis(REDIS_URL);
    subscriber = createRedis(REDIS_URL);
    bus = new UploadEventBus(publisher, prefix);
    await bus.subscribe(subscriber, log, (m) => delivered.push(m));
  });

  afterAll(() => {
    subscriber?.disconnect();
    publisher?.disconnect();
  });

  /** Publishes the raw messages, then a good one, and waits for that one (Redis keeps the order). */
  async function afterRaw(...raw: string[]): Promise<void> {
    delivered.length = 0;
    warn.mockClear();
    for (const message of raw) await publisher.publish(channel, message);
    const marker = randomUUID();
    await bus.publish('anon:marker', 'upload:cancelled', { id: marker });
    await vi.waitFor(() => expect(delivered.at(-1)?.payload).toEqual({ id: marker }));
    delivered.pop();
  }

  it('delivers what it publishes, parsed', async () => {
    const id = randomUUID();
    await afterRaw();
    await bus.publish('user:1', 'upload:progress', { id, progress: 40, step: 'recognizing' });
    await vi.waitFor(() => expect(delivered).toEqual([{ room: 'user:1', event: 'upload:progress', payload: { id, progress: 40, step: 'recognizing' } }]));
    expect(warn).not.toHaveBeenCalled();
  });

  it.each([
    ['not JSON', '{"room":'],
    ['no room', JSON.stringify({ event: 'upload:cancelled', payload: { id: randomUUID() } })],
    ['an event we do not send', JSON.stringify({ room: 'user:1', event: 'upload:deleted', payload: { id: randomUUID() } })],
    ['a step the pipeline has not', JSON.stringify({ room: 'user:1', event: 'upload:progress', payload: { id: randomUUID(), progress: 40, step: 'guessing' } })],
    ['a payload of another event', JSON.stringify({ room: 'user:1', event: 'upload:failed', payload: { id: randomUUID() } })],
  ])('drops and logs a message with %s', async (_case, raw) => {
    await afterRaw(raw);
    expect(delivered).toEqual([]);
    expect(warn).toHaveBeenCalledOnce();
    expect(warn.mock.calls[0]![1]).toBe('malformed upload event dropped');
  });

  it('ignores the other channels of its connection', async () => {
    await subscriber.subscribe(`${prefix}:other`);
    await publisher.publish(`${prefix}:other`, 'anything');
    await afterRaw();
    expect(delivered).toEqual([]);
    expect(warn).not.toHaveBeenCalled();
  });
});
