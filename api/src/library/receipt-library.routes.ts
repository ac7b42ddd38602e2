import { flagKindDecisionSchema, issueDecisionSchema, receiptListQuerySchema, receiptPatchSchema, reextractRequestSchema } from '@receipts/common';
import { Router } from 'express';
import { HttpError, parseBody, parseId } from '../http-error.js';
import type { ReceiptLibraryService } from './receipt-library.service.js';

/** The receipts library (the shapes are the zod schemas in common/src/receipt-library.schema.ts). */
export function receiptLibraryRoutes(library: ReceiptLibraryService): Router {
  const router = Router();

  router.get('/receipts', async (req, res) => {
    res.json(await library.list(req.owner, parseBody(receiptListQuerySchema, req.query)));
  });

  /** Accepts one kind of flag ({ kind }, as `flagKind` names it) on every receipt that needs review for it: { receipts }. */
  router.post('/receipts/flags/accept', async (req, res) => {
    const { kind } = parseBody(flagKindDecisionSchema, req.body);
    res.json(await library.acceptFlagKind(req.owner, kind));
  });

  router.get('/receipts/:id', async (req, res) => {
    res.json(await library.get(req.owner, parseId(req.params.id)));
  });

  router.patch('/receipts/:id', async (req, res) => {
    const patch = parseBody(receiptPatchSchema, req.body);
    res.json(await library.correct(req.owner, parseId(req.params.id), patch));
  });

  /** A page of the receipt as a picture (JPEG; the original for receipts read before pictures were kept). */
  router.get('/receipts/:id/pages/:page', async (req, res) => {
    const page = Number(req.params.page);
    if (!/^\d{1,2}$/.test(req.params.page) || !Number.isInteger(page)) throw new HttpError(400, 'BAD_REQUEST', 'Not a page number.');
    const picture = await library.page(req.owner, parseId(req.params.id), page);
    // Private to the owner; a picture never changes for a reading, and a re-extraction is read anew by the screen.
    res.set({ 'Content-Type': picture.contentType, 'Cache-Control': 'private, no-cache', 'Content-Disposition': 'inline' }).send(picture.bytes);
  });

  /** Accepts a flag after looking: { issue } as the receipt shows it. Answers with the receipt. */
  router.post('/receipts/:id/issues/accept', async (req, res) => {
    const { issue } = parseBody(issueDecisionSchema, req.body);
    res.json(await library.acceptIssue(req.owner, parseId(req.params.id), issue));
  });

  /** Takes an acceptance back. */
  router.post('/receipts/:id/issues/reopen', async (req, res) => {
    const { issue } = parseBody(issueDecisionSchema, req.body);
    res.json(await library.reopenIssue(req.owner, parseId(req.params.id), issue));
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
