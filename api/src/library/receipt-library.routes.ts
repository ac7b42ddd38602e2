import { receiptListQuerySchema, receiptPatchSchema, reextractRequestSchema } from '@receipts/common';
import { Router } from 'express';
import { parseBody, parseId } from '../http-error.js';
import type { ReceiptLibraryService } from './receipt-library.service.js';

/** The receipts library (the shapes are the zod schemas in common/src/receipt-library.schema.ts). */
export function receiptLibraryRoutes(library: ReceiptLibraryService): Router {
  const router = Router();

  router.get('/receipts', async (req, res) => {
    res.json(await library.list(req.owner, parseBody(receiptListQuerySchema, req.query)));
  });

  router.get('/receipts/:id', async (req, res) => {
    res.json(await library.get(req.owner, parseId(req.params.id)));
  });

  router.patch('/receipts/:id', async (req, res) => {
    const patch = parseBody(receiptPatchSchema, req.body);
    res.json(await library.correct(req.owner, parseId(req.params.id), patch));
  });

  router.delete('/receipts/:id', async (req, res) => {
    await library.remove(req.owner, parseId(req.params.id));
    res.status(204).end();
  });

  /** 202 { id: uploadId, receiptId, status: "queued", lane }; progress arrives as upload:* events for the upload id. */
  router.post('/receipts/:id/reextract', async (req, res) => {
    const { engine } = parseBody(reextractRequestSchema, req.body);
    res.status(202).json(await library.reextract(req.owner, parseId(req.params.id), engine));
  });

  return router;
}
