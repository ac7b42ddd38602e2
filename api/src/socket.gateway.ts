import type http from 'node:http';
import type { ClientToServerEvents, ServerToClientEvents, UploadBusMessage } from '@receipts/common';
import { ownerRoom, type Logger } from '@receipts/infra';
import type { RequestHandler } from 'express';
import type { SessionData } from 'express-session';
import { Server } from 'socket.io';
import { ownerOf } from './session.js';
import type { UploadService } from './uploads/upload.service.js';

export type SocketServer = Server<ClientToServerEvents, ServerToClientEvents>;

/**
 * Live progress over Socket.IO, authenticated by the same session cookie as HTTP. Each socket
 * joins its owner's room; every api process forwards bus events to its own sockets only, so
 * any number of api processes can run.
 */
export function createSocketGateway(server: http.Server, session: RequestHandler, uploads: UploadService, log: Logger) {
  const io: SocketServer = new Server(server, { serveClient: false });
  io.engine.use(session);

  io.on('connection', (socket) => {
    const { session: sess, sessionID } = socket.request as unknown as { session: Partial<SessionData>; sessionID: string };
    const owner = ownerOf(sess, sessionID);
    void socket.join(ownerRoom(owner));
    socket.on('uploads:sync', (reply) => {
      if (typeof reply !== 'function') return;
      uploads.list(owner).then(reply, (err: unknown) => {
        log.warn({ err }, 'uploads:sync failed');
        reply([]);
      });
    });
  });

  return {
    io,
    forward(message: UploadBusMessage): void {
      const room = io.local.to(message.room);
      // One call per event: each is then checked against its own payload (TypeScript cannot
      // check one emit of a union of events).
      switch (message.event) {
        case 'upload:progress':
          return void room.emit(message.event, message.payload);
        case 'upload:completed':
          return void room.emit(message.event, message.payload);
        case 'upload:failed':
          return void room.emit(message.event, message.payload);
        case 'upload:cancelled':
          return void room.emit(message.event, message.payload);
        case 'quota:updated':
          return void room.emit(message.event, message.payload);
        default:
          return message satisfies never;
      }
    },
  };
}

export type SocketGateway = ReturnType<typeof createSocketGateway>;
