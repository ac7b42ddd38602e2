import { parentPort } from 'node:worker_threads';
import { htmlWorkExceeded } from './html-work.limits.js';
import { bodyText } from './mail-body.renderer.js';
import { MessageRefusedError, parseMessage } from './mail.parser.js';
import type { FromMailThread, ToMailThread } from './mail.reader.js';

/**
 * Reads one message at a time for the api (mail.reader.ts): MIME, attachments, and the HTML
 * body to text. Everything here is work an attacker chooses, so it runs off the api's event loop
 * with a heap bound and under a time limit the other side enforces by ending this thread.
 */
const port = parentPort!;
const post = (message: FromMailThread) => port.postMessage(message);

/** The body's text is read for a receipt and the PDF keeps 5 pages of it: past this nothing more is used. */
const MAX_BODY_CHARS = 200_000;

port.on('message', (request: ToMailThread) => {
  read(request).catch((err: unknown) => post({ type: 'refused', id: request.id, refusal: 'unreadable', detail: (err as Error)?.message ?? String(err), head: null }));
});

async function read({ id, raw, maxAttachments }: ToMailThread): Promise<void> {
  let parsed;
  try {
    parsed = await parseMessage(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength), { maxAttachments });
  } catch (err) {
    if (!(err instanceof MessageRefusedError)) throw err;
    return post({ type: 'refused', id, refusal: err.refusal, detail: err.message, head: err.head });
  }
  const { attachments, text, html, ...head } = parsed;
  // The head goes first: should the body then overrun the time or memory bound, the refusal can still be answered.
  post({ type: 'head', id, head });
  const over = html ? htmlWorkExceeded(html) : null;
  if (over) return post({ type: 'refused', id, refusal: 'too-complex', detail: over.detail, head });
  const body = bodyText({ html, text });
  post({ type: 'read', id, message: { ...head, attachments, body: body === null ? null : body.slice(0, MAX_BODY_CHARS) } });
}
