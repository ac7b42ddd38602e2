import { createRedis, type Logger, type UploadEventBus } from '@receipts/infra';
import type { SocketGateway } from './socket.gateway.js';
import type { UploadWaiters } from './uploads/upload-waiters.js';

export interface UploadEventRouting {
  /** Stops listening: the subscriber's Redis connection closes. */
  close(): Promise<void>;
}

/**
 * Routes every upload event on the Redis bus to this api process's listeners: the owner's room
 * on its own sockets, and the requests waiting for that upload to end (?wait=1). Every api
 * process listens to every event, so it does not matter which one a browser is connected to.
 */
export async function routeUploadEvents(
  bus: UploadEventBus,
  redisUrl: string,
  log: Logger,
  to: { gateway: SocketGateway; waiters: UploadWaiters },
): Promise<UploadEventRouting> {
  const subscriber = createRedis(redisUrl);
  subscriber.on('error', (err) => log.warn({ err: err.message }, 'redis subscriber error'));
  await bus.subscribe(subscriber, log, (message) => {
    to.gateway.forward(message);
    to.waiters.notify(message);
  });
  return {
    async close() {
      await subscriber.quit();
    },
  };
}
