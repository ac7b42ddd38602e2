import {
  approvalQueueSchema,
  approveBodySchema,
  createReportSchema,
  libraryReceiptSchema,
  rejectBodySchema,
  reportDetailSchema,
  reportExportQuerySchema,
  reportListSchema,
  type ApprovalDecision,
} from '@receipts/common';
import type { Logger } from '@receipts/infra';
import { Router, type Request } from 'express';
import { attachment } from '../export/export.routes.js';
import { requireUser } from '../owner.middleware.js';
import { route } from '../route-spec.js';
import { idParams } from '../validate.middleware.js';
import type { ApprovalService } from './approval.service.js';

const BASE = { tag: 'approvals', caller: 'account' as const, receive: [requireUser] };
const MISSING = { 404: ['NOT_FOUND'] } as const;
/** Not found, or not in a state the move starts from (decided already, being read again). */
const MISSING_OR_MOVED = { 404: ['NOT_FOUND'], 409: ['CONFLICT'] } as const;
/** A decision on what one submitted oneself is refused whatever one's role (the policy's `ownReceipt`). */
const DECISION_ERRORS = { 403: ['FORBIDDEN'], 404: ['NOT_FOUND'], 409: ['CONFLICT'] } as const;

const REPORT_FILE = { media: ['application/pdf', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'], description: 'The report as an attachment' };

/**
 * The submit → approve step: a member submits a receipt or a report of them; an approver sees
 * the queue, decides on receipts and reports, and downloads a report. `links` makes the mailed
 * links (linkBase). A decision is a person's judgement: tokens may submit, never decide.
 */
export function approvalRoutes(service: ApprovalService, links: (req: Request) => string, log: Logger): Router {
  const router = Router();

  const submit = route({
    ...BASE,
    scope: 'receipts:write',
    workspace: 'receipts:submit',
    summary: 'Submit your draft or corrected receipt for approval',
    params: idParams,
    answers: { 200: libraryReceiptSchema },
    errors: MISSING_OR_MOVED,
  });
  router.post('/receipts/:id/submit', submit, async (req, res) => {
    res.json(await service.submit(req.owner, req.params.id));
  });

  const createReport = route({
    ...BASE,
    scope: 'receipts:write',
    workspace: 'receipts:submit',
    summary: 'Make an expense report of your receipts and submit it',
    description: 'With receiptIds, those of your draft or rejected receipts (all or nothing); without, every draft whose day is in the period.',
    body: createReportSchema,
    answers: { 201: reportDetailSchema },
    errors: MISSING_OR_MOVED,
  });
  router.post('/reports', createReport, async (req, res) => {
    res.status(201).json(await service.submitReport(req.owner, req.body));
  });

  const mine = route({ ...BASE, scope: 'receipts:read', workspace: 'receipts:submit', summary: 'Your expense reports, newest first', answers: { 200: reportListSchema } });
  router.get('/reports', mine, async (req, res) => {
    res.json(await service.myReports(req.owner));
  });

  const one = route({
    ...BASE,
    scope: 'receipts:read',
    workspace: 'receipts:own',
    summary: 'An expense report with its receipts (its submitter’s, or an approver’s)',
    params: idParams,
    answers: { 200: reportDetailSchema },
    errors: MISSING,
  });
  router.get('/reports/:id', one, async (req, res) => {
    res.json(await service.report(req.owner, req.params.id));
  });

  const queue = route({ ...BASE, scope: null, workspace: 'receipts:approve', summary: 'Receipts and reports waiting for your decision', answers: { 200: approvalQueueSchema } });
  router.get('/approvals', queue, async (req, res) => {
    res.json(await service.queue(req.owner));
  });

  const decisions: Array<[ApprovalDecision, typeof approveBodySchema | typeof rejectBodySchema, string]> = [
    ['approve', approveBodySchema, 'Approve'],
    ['reject', rejectBodySchema, 'Reject (with a comment)'],
  ];
  for (const [decision, body, verb] of decisions) {
    const receipt = route({
      ...BASE,
      scope: null,
      workspace: 'receipts:approve',
      summary: `${verb} a submitted receipt`,
      params: idParams,
      body,
      answers: { 200: libraryReceiptSchema },
      errors: DECISION_ERRORS,
    });
    router.post(`/receipts/:id/${decision}`, receipt, async (req, res) => {
      res.json(await service.decide(req.owner, req.params.id, decision, req.body.comment, links(req)));
    });
    const report = route({
      ...BASE,
      scope: null,
      workspace: 'receipts:approve',
      summary: `${verb} a submitted expense report as a whole`,
      params: idParams,
      body,
      answers: { 200: reportDetailSchema },
      errors: DECISION_ERRORS,
    });
    router.post(`/reports/:id/${decision}`, report, async (req, res) => {
      res.json(await service.decideReport(req.owner, req.params.id, decision, req.body.comment, links(req)));
    });
  }

  const download = route({
    ...BASE,
    scope: 'export',
    workspace: 'receipts:approve',
    summary: 'An expense report as a PDF or a workbook',
    params: idParams,
    query: reportExportQuerySchema,
    answers: { 200: REPORT_FILE },
    errors: MISSING,
  });
  router.get('/reports/:id/export', download, async (req, res) => {
    const prepared = await service.reportExport(req.owner, req.params.id, req.query.format);
    res.status(200).set({ 'Content-Type': prepared.contentType, 'Content-Disposition': attachment(prepared.filename), 'Cache-Control': 'no-store' });
    try {
      await prepared.write(res);
    } catch (err) {
      // The status line is gone: break the download, so it is not mistaken for a whole file.
      log.warn({ err, reportId: req.params.id }, 'report export stopped');
      res.destroy(err as Error);
    }
  });

  return router;
}
