import { exportRequestSchema, IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER, type ExportRequest } from '@receipts/common';
import type { Logger } from '@receipts/infra';
import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { IDEMPOTENCY_ERRORS, IDEMPOTENCY_KEY_DESCRIPTION, idempotencyKey } from '../idempotency.middleware.js';
import { requestFingerprint, type IdempotencyService } from '../idempotency.service.js';
import { route } from '../route-spec.js';
import type { AuditService } from '../audit/audit.service.js';
import type { ExportService, PreparedExport } from './export.service.js';

const sampleQuerySchema = z.object({ currency: z.string().trim().toUpperCase().regex(/^[A-Z]{3}$/, 'currency must be a three-letter code').default('USD') });
const fireflyQuerySchema = z.preprocess((query) => ({ ...(query as object), preset: 'firefly' }), exportRequestSchema);

/** What an export answers with: the workbook, a preset's import file (CSV, OFX, QIF) or the export pack. */
const EXPORT_FILE = {
  media: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'text/csv', 'application/x-ofx', 'application/qif', 'application/zip'],
  description: 'The file, as an attachment; X-Export-Rows, X-Export-Issues and X-Export-Skipped say what it holds.',
};
const EXPORT = { tag: 'export', caller: 'anyone', scope: 'export', workspace: 'export' } as const;
/** Nothing matched, some selected receipts are gone, or the format cannot hold what was asked. */
const EXPORT_ERRORS_BY_STATUS = { 400: ['NOTHING_TO_EXPORT'], 404: ['NOT_FOUND'] } as const;

/** `attachment` with an ASCII name for old clients and the exact UTF-8 name (RFC 6266) for the rest. */
export function attachment(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/**
 * GET /api/export streams the workbook, a preset's import file or the export pack; POST
 * /api/export takes the same fields as a JSON body, for selections of ids too long for a URL.
 * A POST with an Idempotency-Key is written whole and kept first, so a repeat of the same body
 * gets the very same file (and headers) for 24 hours, whatever changed in between.
 */
export function exportRoutes(service: ExportService, idempotency: IdempotencyService, audit: Pick<AuditService, 'record'>, log: Logger): Router {
  const router = Router();

  const deliver = async (res: Response, prepared: PreparedExport, request: Pick<ExportRequest, 'format' | 'preset'>) => {
    res.status(200).set({
      'Content-Type': prepared.contentType,
      'Content-Disposition': attachment(prepared.filename),
      'Cache-Control': 'no-store',
      'X-Export-Rows': String(prepared.rows),
      'X-Export-Issues': String(prepared.withIssues),
      'X-Export-Skipped': String(prepared.skipped),
      ...(prepared.currencies ? { 'X-Export-Currencies': prepared.currencies.join(',') } : {}),
    });
    const started = Date.now();
    try {
      await prepared.write(res);
      log.info({ format: request.format, preset: request.preset, rows: prepared.rows, ms: Date.now() - started }, 'export sent');
    } catch (err) {
      // The status line is gone: all that is left is to break the download, so it is not mistaken for a whole file.
      log.warn({ err, format: request.format }, 'export stopped');
      res.destroy(err as Error);
    }
  };

  /**
   * The workspace's trail records an export once it is made, before it streams: past that point
   * nothing refuses it. A repeat answered from an Idempotency-Key is the same export, not another.
   */
  const made = async (req: Request, request: ExportRequest, prepared: PreparedExport) => {
    // A workbook holds the receipts with issues too, on a sheet of their own.
    const receipts = request.format === 'xlsx' ? prepared.rows + prepared.withIssues : prepared.rows;
    await audit.record(req.owner, 'export.downloaded', { format: request.format, preset: request.preset, receipts });
    return prepared;
  };

  const send = async (req: Request, res: Response, request: ExportRequest) => {
    await deliver(res, await made(req, request, await service.prepare(req.owner, request)), request);
  };

  /** The home page's sample result (?currency= for the demo rate): the same workbook a visitor's receipts make. */
  const sample = route({ summary: 'A sample workbook, made from demo receipts', tag: 'export', caller: 'anyone', scope: 'public', query: sampleQuerySchema, answers: { 200: EXPORT_FILE } });
  router.get('/export/sample', sample, async (req, res) => {
    await deliver(res, service.sample(req.query.currency), { format: 'xlsx', preset: 'generic' });
  });
  const byQuery = route({ ...EXPORT, summary: 'Export your receipts', query: exportRequestSchema, answers: { 200: EXPORT_FILE }, errors: EXPORT_ERRORS_BY_STATUS });
  router.get('/export', byQuery, (req, res) => send(req, res, req.query));
  const byBody = route({
    ...EXPORT,
    summary: 'Export your receipts (the same fields as a JSON body)',
    description: 'With an Idempotency-Key, the same body again within 24 hours answers the very same file.',
    headers: { [IDEMPOTENCY_KEY_HEADER]: IDEMPOTENCY_KEY_DESCRIPTION },
    receive: [idempotencyKey],
    body: exportRequestSchema,
    answers: { 200: EXPORT_FILE },
    errors: { ...EXPORT_ERRORS_BY_STATUS, ...IDEMPOTENCY_ERRORS },
  });
  router.post('/export', byBody, async (req, res) => {
    const request = req.body;
    if (!req.idempotencyKey) return send(req, res, request);
    const { answer, replayed } = await idempotency.run(req.owner, req.idempotencyKey, requestFingerprint('POST /api/export', request), async () => ({
      export: await service.keep(await made(req, request, await service.prepare(req.owner, request))),
    }));
    if (replayed) res.set(IDEMPOTENT_REPLAYED_HEADER, 'true');
    await deliver(res, await service.kept(answer.export), request);
  });

  /** The Firefly III data importer's configuration for the Firefly CSV (same `dateFormat`). */
  const firefly = route({ ...EXPORT, summary: 'The Firefly III data importer’s configuration for the Firefly CSV', query: fireflyQuerySchema, answers: { 200: z.record(z.string(), z.unknown()) } });
  router.get('/export/firefly-config', firefly, (req, res) => {
    res.set({ 'Content-Disposition': attachment('firefly-import-config.json'), 'Cache-Control': 'no-store' }).json(service.fireflyConfig(req.query));
  });
  return router;
}
