import { receiptListQuerySchema, receiptPatchSchema, reextractRequestSchema } from '@receipts/common';
import { Router } from 'express';
import { parseBody } from '../http-error.js';
import { ownerOf } from '../session.js';
import type { UploadService } from '../upload.service.js';
import type { ReceiptLibraryService } from './receipt-library.service.js';

/** The receipts library (the shapes are the zod schemas in common/src/receipt-library.schema.ts). */
export function receiptLibraryRoutes(library: ReceiptLibraryService, uploads: UploadService): Router {
  const router = Router();

  router.get('/receipts', async (req, res) => {
    res.json(await library.list(ownerOf(req.session), parseBody(receiptListQuerySchema, req.query)));
  });

  router.get('/receipts/:id', async (req, res) => {
    res.json(await library.get(ownerOf(req.session), req.params.id));
  });

  router.patch('/receipts/:id', async (req, res) => {
    res.json(await library.correct(ownerOf(req.session), req.params.id, parseBody(receiptPatchSchema, req.body)));
  });

  router.delete('/receipts/:id', async (req, res) => {
    await library.remove(ownerOf(req.session), req.params.id);
    res.status(204).end();
  });

  /** 202 { id: uploadId, receiptId, status: "queued", lane }; progress arrives as upload:* events for the upload id. */
  router.post('/receipts/:id/reextract', async (req, res) => {
    const { engine } = parseBody(reextractRequestSchema, req.body);
    res.status(202).json(await library.reextract(ownerOf(req.session, req.ip), req.params.id, engine));
  });

  router.delete('/uploads/:id', async (req, res) => {
    await uploads.remove(ownerOf(req.session), req.params.id);
    res.status(204).end();
  });

  /** Keeps an upload flagged as a possible duplicate. */
  router.post('/uploads/:id/keep', async (req, res) => {
    res.json(await uploads.keep(ownerOf(req.session), req.params.id));
  });

  return router;
}
