import type { DuplicateOf } from './duplicate.schema.js';
import type { QuotaView } from './quota.rules.js';
import type { ReceiptView } from './receipt.schema.js';
import type { UploadView } from './upload.schema.js';

export interface UploadProgressEvent {
  id: string;
  progress: number;
  step: string;
}

/** Events the server pushes to the owner's room. */
export interface ServerToClientEvents {
  'upload:progress': (event: UploadProgressEvent) => void;
  /** `duplicateOf` when the stored receipt repeats an earlier one of the same owner. */
  'upload:completed': (event: { id: string; receipt: ReceiptView; duplicateOf?: DuplicateOf }) => void;
  'upload:failed': (event: { id: string; error: string }) => void;
  'upload:cancelled': (event: { id: string }) => void;
  /** The visitor's quota changed (an upload took a unit, a cancel or failure returned one). */
  'quota:updated': (quota: QuotaView) => void;
}

/** Requests a client may make over the socket. */
export interface ClientToServerEvents {
  /** Current state of the caller's uploads, newest first (reload, second tab). */
  'uploads:sync': (reply: (uploads: UploadView[]) => void) => void;
}

/** An event as it travels between processes on the Redis bus, addressed to one owner's room. */
export type UploadBusMessage = {
  [K in keyof ServerToClientEvents]: { room: string; event: K; payload: Parameters<ServerToClientEvents[K]>[0] };
}[keyof ServerToClientEvents];
