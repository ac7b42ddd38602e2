// A decoder process (decode.sandbox.ts forks it): reads one untrusted file at a time and
// answers with its pages. Whatever a file does here — spin, allocate, crash — costs only this
// process, which the parent kills past its time or memory limit and replaces.
import sharp from 'sharp';
import { asBuffer } from '../process/cloned-bytes.js';
import { UnreadableFileError } from '../page/unreadable-file.error.js';
import type { DecodeReply, DecodeRequest } from './decode.protocol.js';
import { decodeUntrusted } from './document.decoder.js';

// Every file is different: libvips' operation cache would only hold memory between them.
sharp.cache(false);

const send = (reply: DecodeReply) => process.send!(reply);

process.on('message', (request: DecodeRequest) => {
  decodeUntrusted(asBuffer(request.bytes), request.mimeType).then(
    (result) => send({ type: 'done', id: request.id, result }),
    (err: unknown) => {
      const error = err as Error;
      send({
        type: 'failed',
        id: request.id,
        unreadable: err instanceof UnreadableFileError,
        message: error.message,
        stack: error.stack,
        // What the library said, for the log (the message is the user's).
        cause: error.cause instanceof Error ? error.cause.message : undefined,
      });
    },
  );
});
// The parent is gone (exited or killed): so is the reason to be.
process.on('disconnect', () => process.exit(0));
send({ type: 'ready' });
