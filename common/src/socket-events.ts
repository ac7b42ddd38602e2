import { z } from 'zod';
import { duplicateOfSchema } from './duplicate.schema.js';
import { pipelineStepSchema } from './progress.js';
import { quotaViewSchema } from './quota.rules.js';
import { receiptViewSchema } from './receipt.schema.js';
import type { UploadView } from './upload.schema.js';

/**
 * The payload of each event the server pushes to the owner's room, declared once: the socket
 * types below are inferred from it, and the api parses each message off the Redis bus with it.
 */
export const serverEventSchemas = {
  'upload:progress': z.object({ id: z.uuid(), progress: z.number().int().min(0).max(100), step: pipelineStepSchema }),
  /** `duplicateOf` when the stored receipt repeats an earlier one of the same owner. */
  'upload:completed': z.object({ id: z.uuid(), receipt: receiptViewSchema, duplicateOf: duplicateOfSchema.optional() }),
  'upload:failed': z.object({ id: z.uuid(), error: z.string() }),
  'upload:cancelled': z.object({ id: z.uuid() }),
  /** The visitor's quota changed (an upload took a unit, a cancel or failure returned one). */
  'quota:updated': quotaViewSchema,
};

type ServerEvent = keyof typeof serverEventSchemas;
export type ServerEventPayload<K extends ServerEvent> = z.infer<(typeof serverEventSchemas)[K]>;
export type UploadProgressEvent = ServerEventPayload<'upload:progress'>;

/** Events the server pushes to the owner's room. */
export type ServerToClientEvents = { [K in ServerEvent]: (event: ServerEventPayload<K>) => void };

/** Requests a client may make over the socket. */
export interface ClientToServerEvents {
  /** Current state of the caller's uploads, newest first (reload, second tab). */
  'uploads:sync': (reply: (uploads: UploadView[]) => void) => void;
}

const busMessage = <K extends ServerEvent>(event: K) =>
  z.object({ room: z.string().min(1), event: z.literal(event), payload: serverEventSchemas[event] });

/** An event as it travels between processes on the Redis bus, addressed to one owner's room. */
export const uploadBusMessageSchema = z.discriminatedUnion('event', [
  busMessage('upload:progress'),
  busMessage('upload:completed'),
  busMessage('upload:failed'),
  busMessage('upload:cancelled'),
  busMessage('quota:updated'),
]);
export type UploadBusMessage = z.infer<typeof uploadBusMessageSchema>;
