import { MAX_UPLOAD_BYTES, isFinal, uploadFieldsSchema, USER_MESSAGES, type UploadAccepted } from '@receipts/common';
import { Router, type RequestHandler } from 'express';
import multer from 'multer';
import { HttpError } from './http-error.js';
import { ownerOf } from './session.js';
import type { UploadService } from './upload.service.js';
import type { UploadWaiters } from './upload-waiters.js';

const receiveFile = multer({ storage: multer.memoryStorage(), limits: { fileSize: MAX_UPLOAD_BYTES, files: 1 } }).single('file');

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
    next(err);
  });
};

export function uploadRoutes(service: UploadService, waiters: UploadWaiters, waitTimeoutMs: number): Router {
  const router = Router();

  router.post('/ocr', singleFile, async (req, res) => {
    if (!req.file) throw new HttpError(400, 'FILE_MISSING', 'No file was sent. Attach it in the form field "file".');
    const fields = uploadFieldsSchema.safeParse({ currencyCode: req.body?.currencyCode || undefined });
    if (!fields.success) throw new HttpError(400, 'BAD_REQUEST', fields.error.issues[0]!.message);
    const owner = ownerOf(req.session, req.ip);
    const upload = await service.create(owner, req.file, fields.data.currencyCode, { requestId: req.id });
    if (req.query.wait !== '1') {
      const accepted: UploadAccepted = { id: upload.id, status: 'queued', lane: upload.lane };
      res.status(202).json(accepted);
      return;
    }
    const waiter = waiters.waitFor(upload.id, waitTimeoutMs);
    res.on('close', waiter.cancel);
    const now = await service.get(owner, upload.id);
    if (!isFinal(now.status)) await waiter.done;
    waiter.cancel();
    res.json(await service.get(owner, upload.id));
  });

  router.get('/uploads', async (req, res) => {
    res.json(await service.list(ownerOf(req.session)));
  });

  router.get('/uploads/:id', async (req, res) => {
    res.json(await service.get(ownerOf(req.session), req.params.id));
  });

  router.post('/ocr/cancel/:id', async (req, res) => {
    res.json(await service.cancel(ownerOf(req.session), req.params.id));
  });

  return router;
}
