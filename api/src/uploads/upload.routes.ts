import { hasControlCharacter, IDEMPOTENT_REPLAYED_HEADER, MAX_UPLOAD_BYTES, isFinal, uploadFieldsSchema, USER_MESSAGES, type UploadAccepted } from '@receipts/common';
import { Router, type RequestHandler } from 'express';
import multer from 'multer';
import { z } from 'zod';
import { HttpError } from '../http-error.js';
import { idempotencyKey } from '../idempotency.middleware.js';
import { requestFingerprint, type IdempotencyService } from '../idempotency.service.js';
import { failingAs, idParams, validate } from '../validate.middleware.js';
import { hashingMemoryStorage } from './hashing-memory.storage.js';
import type { IncomingFile, UploadService } from './upload.service.js';
import type { UploadWaiters } from './upload-waiters.js';

// Browsers send file names as raw UTF-8 without a charset; multer's default, Latin-1, garbles them.
const receiveFile = multer({
  storage: hashingMemoryStorage,
  limits: { fileSize: MAX_UPLOAD_BYTES, files: 1 },
  defParamCharset: 'utf8',
}).single('file');

const MALFORMED_FORM = 'The upload is not a readable form. Send the file as multipart/form-data.';

/** multer's errors in the api's error shape. */
const singleFile: RequestHandler = (req, res, next) => {
  receiveFile(req, res, (err: unknown) => {
    if (!err) return next();
    if (err instanceof multer.MulterError) {
      if (err.code === 'LIMIT_FILE_SIZE') return next(new HttpError(413, 'FILE_TOO_LARGE', USER_MESSAGES.fileTooLarge));
      if (err.code === 'LIMIT_UNEXPECTED_FILE' || err.code === 'LIMIT_FILE_COUNT') {
        return next(new HttpError(400, 'BAD_REQUEST', 'Send exactly one file, in the form field "file".'));
      }
      return next(new HttpError(400, 'BAD_REQUEST', err.message));
    }
    // Anything else the form parser throws (a malformed part header, a NUL in it, a cut-off
    // body) is the request's fault.
    req.log.info({ err: String((err as Error)?.message ?? err) }, 'malformed multipart request');
    next(new HttpError(400, 'BAD_REQUEST', MALFORMED_FORM));
  });
};

/** The file is there and its name is one we keep: checked before the form's other fields. */
const fileReceived: RequestHandler = (req, _res, next) => {
  if (!req.file) return next(new HttpError(400, 'FILE_MISSING', 'No file was sent. Attach it in the form field "file".'));
  // busboy refuses a raw control character in the name, but an encoded one (`filename*=UTF-8''a%00b`) decodes to it.
  if (hasControlCharacter(req.file.originalname)) return next(new HttpError(400, 'BAD_REQUEST', 'The file name contains characters that are not allowed.'));
  next();
};

/** The form's fields beside the file: an empty one is left out; anything wrong is a malformed request. */
const uploadFields = failingAs(
  'BAD_REQUEST',
  z.preprocess((form: { currencyCode?: unknown; ifDuplicate?: unknown }) => ({ currencyCode: form.currencyCode || undefined, ifDuplicate: form.ifDuplicate || undefined }), uploadFieldsSchema),
);

/**
 * POST /api/ocr, the caller's uploads, cancel, delete and keep-a-duplicate. An upload sent with an
 * Idempotency-Key is made once: a repeat of the same file and fields is answered with that upload.
 */
export function uploadRoutes(service: UploadService, idempotency: IdempotencyService, waiters: UploadWaiters, waitTimeoutMs: number): Router {
  const router = Router();

  router.post('/ocr', idempotencyKey, singleFile, fileReceived, validate({ body: uploadFields }), async (req, res) => {
    const fields = req.body;
    const file = req.file as IncomingFile;
    const fingerprint = requestFingerprint('POST /api/ocr', service.sha256Of(file), file.originalname, fields.currencyCode ?? null, fields.ifDuplicate ?? null);
    const { answer, replayed } = await idempotency.run(req.owner, req.idempotencyKey, fingerprint, async () => {
      const upload = await service.create(req.owner, file, fields.currencyCode, { requestId: req.id, ifDuplicate: fields.ifDuplicate });
      return { upload: { id: upload.id, status: 'queued', lane: upload.lane } satisfies UploadAccepted };
    });
    if (replayed) res.set(IDEMPOTENT_REPLAYED_HEADER, 'true');
    const { id } = answer.upload;
    if (req.query.wait !== '1') {
      res.status(202).json(answer.upload);
      return;
    }
    const waiter = waiters.waitFor(id, waitTimeoutMs);
    res.on('close', waiter.cancel);
    const now = await service.get(req.owner, id);
    if (!isFinal(now.status)) await waiter.done;
    waiter.cancel();
    res.json(await service.get(req.owner, id));
  });

  router.get('/uploads', async (req, res) => {
    res.json(await service.list(req.owner));
  });

  /** How long receipts took per lane over the last day: { lanes: [{ lane, receipts, p50Ms, p95Ms }], hours }. */
  router.get('/uploads/processing-times', async (_req, res) => {
    res.json(await service.processingTimes());
  });

  /** Where the caller's waiting uploads are in the queue: { uploads: [{ id, ahead, waitMs }] }. */
  router.get('/uploads/queue', async (req, res) => {
    res.json(await service.queuePlaces(req.owner));
  });

  router.get('/uploads/:id', validate({ params: idParams }), async (req, res) => {
    res.json(await service.get(req.owner, req.params.id));
  });

  router.post('/ocr/cancel/:id', validate({ params: idParams }), async (req, res) => {
    res.json(await service.cancel(req.owner, req.params.id));
  });

  router.delete('/uploads/:id', validate({ params: idParams }), async (req, res) => {
    await service.remove(req.owner, req.params.id);
    res.status(204).end();
  });

  /** Keeps an upload flagged as a possible duplicate. */
  router.post('/uploads/:id/keep', validate({ params: idParams }), async (req, res) => {
    res.json(await service.keep(req.owner, req.params.id));
  });

  return router;
}
