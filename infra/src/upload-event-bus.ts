import { CHANNELS, type ServerToClientEvents, type UploadBusMessage } from '@receipts/common';
import type { Redis } from 'ioredis';

/** Socket.IO room of one owner: every tab and api process of that owner listens there. */
export function ownerRoom(owner: { userId: string | null; anonId: string | null }): string {
  if (owner.userId) return `user:${owner.userId}`;
  if (owner.anonId) return `anon:${owner.anonId}`;
  throw new Error('An upload must have an owner');
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
    payload: Parameters<ServerToClientEvents[K]>[0],
  ): Promise<void> {
    await this.publisher.publish(this.channel, JSON.stringify({ room, event, payload }));
  }

  /** `subscriber` must be a connection of its own (a subscribed connection runs no other commands). */
  async subscribe(subscriber: Redis, handler: (message: UploadBusMessage) => void): Promise<void> {
    subscriber.on('message', (channel: string, raw: string) => {
      if (channel === this.channel) handler(JSON.parse(raw) as UploadBusMessage);
    });
    await subscriber.subscribe(this.channel);
  }
}
