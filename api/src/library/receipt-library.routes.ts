import { flagKindDecisionSchema, issueDecisionSchema, receiptListQuerySchema, receiptPatchSchema, reextractRequestSchema } from '@receipts/common';
import { Router } from 'express';
import { z } from 'zod';
import { failingAs, idParams, uuidParam, validate } from '../validate.middleware.js';
import type { ReceiptLibraryService } from './receipt-library.service.js';

/** A page of a receipt: its number (at most two digits) is checked before its receipt's id. */
const pageParams = failingAs('BAD_REQUEST', z.object({ page: z.string().regex(/^\d{1,2}$/, 'Not a page number.').transform(Number), id: uuidParam }));

/** The receipts library (the shapes are the zod schemas in common/src/receipt-library.schema.ts). */
export function receiptLibraryRoutes(library: ReceiptLibraryService): Router {
  const router = Router();

  router.get('/receipts', validate({ query: receiptListQuerySchema }), async (req, res) => {
    res.json(await library.list(req.owner, req.query));
  });

  /** Accepts one kind of flag ({ kind }, as `flagKind` names it) on every receipt that needs review for it: { receipts }. */
  router.post('/receipts/flags/accept', validate({ body: flagKindDecisionSchema }), async (req, res) => {
    res.json(await library.acceptFlagKind(req.owner, req.body.kind));
  });

  router.get('/receipts/:id', validate({ params: idParams }), async (req, res) => {
    res.json(await library.get(req.owner, req.params.id));
  });

  router.patch('/receipts/:id', validate({ body: receiptPatchSchema, params: idParams }), async (req, res) => {
    res.json(await library.correct(req.owner, req.params.id, req.body));
  });

  /** A page of the receipt as a picture (JPEG; the original for receipts read before pictures were kept). */
  router.get('/receipts/:id/pages/:page', validate({ params: pageParams }), async (req, res) => {
    const picture = await library.page(req.owner, req.params.id, req.params.page);
    // Private to the owner; a picture never changes for a reading, and a re-extraction is read anew by the screen.
    res.set({ 'Content-Type': picture.contentType, 'Cache-Control': 'private, no-cache', 'Content-Disposition': 'inline' }).send(picture.bytes);
  });

  /** Accepts a flag after looking: { issue } as the receipt shows it. Answers with the receipt. */
  router.post('/receipts/:id/issues/accept', validate({ body: issueDecisionSchema, params: idParams }), async (req, res) => {
    res.json(await library.acceptIssue(req.owner, req.params.id, req.body.issue));
  });

  /** Takes an acceptance back. */
  router.post('/receipts/:id/issues/reopen', validate({ body: issueDecisionSchema, params: idParams }), async (req, res) => {
    res.json(await library.reopenIssue(req.owner, req.params.id, req.body.issue));
  });

  router.delete('/receipts/:id', validate({ params: idParams }), async (req, res) => {
    await library.remove(req.owner, req.params.id);
    res.status(204).end();
  });

  /** 202 { id: uploadId, receiptId, status: "queued", lane }; progress arrives as upload:* events for the upload id. */
  router.post('/receipts/:id/reextract', validate({ body: reextractRequestSchema, params: idParams }), async (req, res) => {
    res.status(202).json(await library.reextract(req.owner, req.params.id, req.body.engine));
  });

  return router;
}
