import {
  flagKindAcceptedSchema,
  flagKindDecisionSchema,
  issueDecisionSchema,
  receiptDetailSchema,
  receiptListQuerySchema,
  receiptListSchema,
  receiptPatchSchema,
  reextractAcceptedSchema,
  reextractRequestSchema,
} from '@receipts/common';
import { Router } from 'express';
import { z } from 'zod';
import { route } from '../route-spec.js';
import { failingAs, idParams, uuidParam } from '../validate.middleware.js';
import type { ReceiptLibraryService } from './receipt-library.service.js';

/** What a page's picture may be: a JPEG made from the file, or an original image shown as it is. */
const PAGE_MEDIA = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'];

/** A page of a receipt: its number (at most two digits) is checked before its receipt's id. */
const pageParams = failingAs('BAD_REQUEST', z.object({ page: z.string().regex(/^\d{1,2}$/, 'Not a page number.').transform(Number), id: uuidParam }));

// Which receipts a member sees (their own or all of the workspace's) is the queries' scope (ownedBy).
const READ = { tag: 'receipts', caller: 'anyone', scope: 'receipts:read', workspace: 'receipts:own' } as const;
const WRITE = { tag: 'receipts', caller: 'anyone', scope: 'receipts:write', workspace: 'receipts:own' } as const;
const NOT_FOUND = { 404: ['NOT_FOUND'] } as const;
/** A receipt being extracted again cannot be changed meanwhile. */
const MISSING_OR_BUSY = { 404: ['NOT_FOUND'], 409: ['CONFLICT'] } as const;

/** The receipts library (the shapes are the zod schemas in common/src/receipt-library.schema.ts). */
export function receiptLibraryRoutes(library: ReceiptLibraryService): Router {
  const router = Router();

  router.get('/receipts', route({ ...READ, summary: 'List your receipts, filtered, sorted and paged', query: receiptListQuerySchema, answers: { 200: receiptListSchema } }), async (req, res) => {
    res.json(await library.list(req.owner, req.query));
  });

  /** Accepts one kind of flag ({ kind }, as `flagKind` names it) on every receipt that needs review for it: { receipts }. */
  const acceptKind = route({ ...WRITE, summary: 'Accept one kind of flag on every receipt that has it', body: flagKindDecisionSchema, answers: { 200: flagKindAcceptedSchema } });
  router.post('/receipts/flags/accept', acceptKind, async (req, res) => {
    res.json(await library.acceptFlagKind(req.owner, req.body.kind));
  });

  router.get('/receipts/:id', route({ ...READ, summary: 'A receipt with its fields, flags and history', params: idParams, answers: { 200: receiptDetailSchema }, errors: NOT_FOUND }), async (req, res) => {
    res.json(await library.get(req.owner, req.params.id));
  });

  const correct = route({ ...WRITE, summary: 'Correct a receipt’s fields', body: receiptPatchSchema, params: idParams, answers: { 200: receiptDetailSchema }, errors: MISSING_OR_BUSY });
  router.patch('/receipts/:id', correct, async (req, res) => {
    res.json(await library.correct(req.owner, req.params.id, req.body));
  });

  /** A page of the receipt as a picture (JPEG; the original for receipts read before pictures were kept). */
  const page = route({ ...READ, summary: 'A page of the receipt as a picture', params: pageParams, answers: { 200: { media: PAGE_MEDIA, description: 'The page’s picture' } }, errors: NOT_FOUND });
  router.get('/receipts/:id/pages/:page', page, async (req, res) => {
    const picture = await library.page(req.owner, req.params.id, req.params.page);
    // Private to the owner; a picture never changes for a reading, and a re-extraction is read anew by the screen.
    res.set({ 'Content-Type': picture.contentType, 'Cache-Control': 'private, no-cache', 'Content-Disposition': 'inline' }).send(picture.bytes);
  });

  /** Accepts a flag after looking: { issue } as the receipt shows it. Answers with the receipt. */
  const accept = route({ ...WRITE, summary: 'Accept a flag of a receipt after looking', body: issueDecisionSchema, params: idParams, answers: { 200: receiptDetailSchema }, errors: MISSING_OR_BUSY });
  router.post('/receipts/:id/issues/accept', accept, async (req, res) => {
    res.json(await library.acceptIssue(req.owner, req.params.id, req.body.issue));
  });

  /** Takes an acceptance back. */
  const reopen = route({ ...WRITE, summary: 'Take the acceptance of a flag back', body: issueDecisionSchema, params: idParams, answers: { 200: receiptDetailSchema }, errors: MISSING_OR_BUSY });
  router.post('/receipts/:id/issues/reopen', reopen, async (req, res) => {
    res.json(await library.reopenIssue(req.owner, req.params.id, req.body.issue));
  });

  router.delete('/receipts/:id', route({ ...WRITE, summary: 'Delete a receipt and its upload', params: idParams, answers: { 204: null }, errors: NOT_FOUND }), async (req, res) => {
    await library.remove(req.owner, req.params.id);
    res.status(204).end();
  });

  /** 202 { id: uploadId, receiptId, status: "queued", lane }; progress arrives as upload:* events for the upload id. */
  const reextract = route({
    ...WRITE,
    summary: 'Extract a receipt again, with another engine if you like',
    body: reextractRequestSchema,
    params: idParams,
    answers: { 202: reextractAcceptedSchema },
    errors: { 404: ['NOT_FOUND'], 409: ['CONFLICT'], 429: ['QUOTA_EXCEEDED'], 503: ['SERVICE_UNAVAILABLE'] },
  });
  router.post('/receipts/:id/reextract', reextract, async (req, res) => {
    res.status(202).json(await library.reextract(req.owner, req.params.id, req.body.engine));
  });

  return router;
}
