import {
  apiErrorSchema,
  duplicateFileErrorSchema,
  hasControlCharacter,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
  isFinal,
  MAX_UPLOAD_BYTES,
  processingTimesSchema,
  queuePlacesSchema,
  uploadAcceptedSchema,
  uploadFieldsSchema,
  uploadViewSchema,
  USER_MESSAGES,
  type UploadAccepted,
} from '@receipts/common';
import { Router, type RequestHandler } from 'express';
import multer from 'multer';
import { z } from 'zod';
import { HttpError } from '../http-error.js';
import { IDEMPOTENCY_ERRORS, IDEMPOTENCY_KEY_DESCRIPTION, idempotencyKey } from '../idempotency.middleware.js';
import { requestFingerprint, type IdempotencyService } from '../idempotency.service.js';
import { route } from '../route-spec.js';
import { failingAs, idParams } from '../validate.middleware.js';
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

/** 409: the same file is there already (ifDuplicate=ask), or a request with this Idempotency-Key is still being answered. */
const duplicateOrInFlight = z.union([duplicateFileErrorSchema, apiErrorSchema.extend({ error: z.literal('CONFLICT') })]);

/** ?wait=1 holds the answer until the upload is done (or the wait times out). */
const waitQuery = failingAs('BAD_REQUEST', z.object({ wait: z.literal('1').optional().describe('1: answer when the upload is done (completed, failed or cancelled) instead of at once, with its view.') }));

const UPLOAD = { tag: 'uploads', caller: 'anyone', workspace: 'receipts:own' } as const;
const NOT_FOUND = { 404: ['NOT_FOUND'] } as const;

/**
 * POST /api/ocr, the caller's uploads, cancel, delete and keep-a-duplicate. An upload sent with an
 * Idempotency-Key is made once: a repeat of the same file and fields is answered with that upload.
 */
export function uploadRoutes(service: UploadService, idempotency: IdempotencyService, waiters: UploadWaiters, waitTimeoutMs: number): Router {
  const router = Router();

  const upload = route({
    ...UPLOAD,
    summary: 'Upload a receipt',
    description: 'One image or PDF in the form field `file`; it is queued for extraction at once (202), or with ?wait=1 answered when done. With an Idempotency-Key, the same file and fields again within 24 hours answer the first upload.',
    scope: 'receipts:write',
    headers: { [IDEMPOTENCY_KEY_HEADER]: IDEMPOTENCY_KEY_DESCRIPTION },
    receive: [idempotencyKey, singleFile, fileReceived],
    bodyMedia: 'multipart/form-data',
    body: uploadFields,
    query: waitQuery,
    answers: { 202: uploadAcceptedSchema, 200: uploadViewSchema },
    errors: { 400: ['FILE_MISSING', 'FILE_EMPTY'], 409: duplicateOrInFlight, 413: ['FILE_TOO_LARGE'], 415: ['UNSUPPORTED_FILE_TYPE'], 422: IDEMPOTENCY_ERRORS[422], 429: ['QUOTA_EXCEEDED'], 503: ['SERVICE_UNAVAILABLE'] },
  });
  router.post('/ocr', upload, async (req, res) => {
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

  router.get('/uploads', route({ ...UPLOAD, summary: 'List your uploads', scope: 'receipts:read', answers: { 200: z.array(uploadViewSchema) } }), async (req, res) => {
    res.json(await service.list(req.owner));
  });

  /** How long receipts took per lane over the last day: { lanes: [{ lane, receipts, p50Ms, p95Ms }], hours }. */
  const times = route({ ...UPLOAD, summary: 'How long receipts took per lane over the last day', scope: 'receipts:read', answers: { 200: processingTimesSchema } });
  router.get('/uploads/processing-times', times, async (_req, res) => {
    res.json(await service.processingTimes());
  });

  /** Where the caller's waiting uploads are in the queue: { uploads: [{ id, ahead, waitMs }] }. */
  const places = route({ ...UPLOAD, summary: 'Where your waiting uploads are in the queue', scope: 'receipts:read', answers: { 200: queuePlacesSchema } });
  router.get('/uploads/queue', places, async (req, res) => {
    res.json(await service.queuePlaces(req.owner));
  });

  router.get('/uploads/:id', route({ ...UPLOAD, summary: 'An upload, with its receipt once read', scope: 'receipts:read', params: idParams, answers: { 200: uploadViewSchema }, errors: NOT_FOUND }), async (req, res) => {
    res.json(await service.get(req.owner, req.params.id));
  });

  const cancel = route({ ...UPLOAD, summary: 'Cancel an upload that is waiting or being read', scope: 'receipts:write', params: idParams, answers: { 200: uploadViewSchema }, errors: { ...NOT_FOUND, 409: ['NOT_CANCELLABLE'] } });
  router.post('/ocr/cancel/:id', cancel, async (req, res) => {
    res.json(await service.cancel(req.owner, req.params.id));
  });

  router.delete('/uploads/:id', route({ ...UPLOAD, summary: 'Delete an upload and its receipt', scope: 'receipts:write', params: idParams, answers: { 204: null }, errors: NOT_FOUND }), async (req, res) => {
    await service.remove(req.owner, req.params.id);
    res.status(204).end();
  });

  /** Keeps an upload flagged as a possible duplicate. */
  const keep = route({ ...UPLOAD, summary: 'Keep an upload flagged as a possible duplicate', scope: 'receipts:write', params: idParams, answers: { 200: uploadViewSchema }, errors: NOT_FOUND });
  router.post('/uploads/:id/keep', keep, async (req, res) => {
    res.json(await service.keep(req.owner, req.params.id));
  });

  return router;
}
