import { CHANNELS, uploadBusMessageSchema, type ServerEventPayload, type ServerToClientEvents, type UploadBusMessage } from '@receipts/common';
import type { Redis } from 'ioredis';
import type { Logger } from './logger.js';
import { ownerKey } from './upload-scope.js';

/** Socket.IO room of one owner: every tab and api process of that owner listens there. */
export function ownerRoom(owner: { userId: string | null; anonId: string | null }): string {
  return ownerKey(owner);
}

/**
 * Upload events travel between processes over Redis pub/sub: workers (and the api, for
 * cancels) publish, every api process subscribes and forwards to its own sockets. Order is
 * kept per publisher; the database stays the source of truth for state.
 */
export class UploadEventBus {
  private readonly channel: string;

  constructor(
    private readonly publisher: Redis,
    prefix: string,
  ) {
    this.channel = `${prefix}:${CHANNELS.uploadEvents}`;
  }

  async publish<K extends keyof ServerToClientEvents>(
    room: string,
    event: K,
    payload: ServerEventPayload<K>,
  ): Promise<void> {
    await this.publisher.publish(this.channel, JSON.stringify({ room, event, payload }));
  }

  /**
   * `subscriber` must be a connection of its own (a subscribed connection runs no other commands).
   * Each message is parsed before `handler` sees it: anyone who can reach Redis can publish, so a
   * message that is not one of ours is logged and dropped, never forwarded to a browser.
   */
  async subscribe(subscriber: Redis, log: Logger, handler: (message: UploadBusMessage) => void): Promise<void> {
    subscriber.on('message', (channel: string, raw: string) => {
      if (channel !== this.channel) return;
      const message = parseBusMessage(raw);
      if (message.ok) handler(message.value);
      else log.warn({ channel, reason: message.reason, size: raw.length }, 'malformed upload event dropped');
    });
    await subscriber.subscribe(this.channel);
  }
}

function parseBusMessage(raw: string): { ok: true; value: UploadBusMessage } | { ok: false; reason: string } {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { ok: false, reason: 'not JSON' };
  }
  const parsed = uploadBusMessageSchema.safeParse(json);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, reason: parsed.error.issues.map((i) => `${i.path.map(String).join('.')}: ${i.message}`).join('; ') };
}
