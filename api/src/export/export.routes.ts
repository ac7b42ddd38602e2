import { exportRequestSchema, IDEMPOTENT_REPLAYED_HEADER, type ExportRequest } from '@receipts/common';
import type { Logger } from '@receipts/infra';
import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { idempotencyKey } from '../idempotency.middleware.js';
import { requestFingerprint, type IdempotencyService } from '../idempotency.service.js';
import { validate } from '../validate.middleware.js';
import type { ExportService, PreparedExport } from './export.service.js';

const sampleQuerySchema = z.object({ currency: z.string().trim().toUpperCase().regex(/^[A-Z]{3}$/, 'currency must be a three-letter code').default('USD') });
const fireflyQuerySchema = z.preprocess((query) => ({ ...(query as object), preset: 'firefly' }), exportRequestSchema);

/** `attachment` with an ASCII name for old clients and the exact UTF-8 name (RFC 6266) for the rest. */
function attachment(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/**
 * GET /api/export streams the workbook, a preset's import file or the export pack; POST
 * /api/export takes the same fields as a JSON body, for selections of ids too long for a URL.
 * A POST with an Idempotency-Key is written whole and kept first, so a repeat of the same body
 * gets the very same file (and headers) for 24 hours, whatever changed in between.
 */
export function exportRoutes(service: ExportService, idempotency: IdempotencyService, log: Logger): Router {
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

  const send = async (req: Request, res: Response, request: ExportRequest) => {
    await deliver(res, await service.prepare(req.owner, request), request);
  };

  /** The home page's sample result (?currency= for the demo rate): the same workbook a visitor's receipts make. */
  router.get('/export/sample', validate({ query: sampleQuerySchema }), async (req, res) => {
    await deliver(res, service.sample(req.query.currency), { format: 'xlsx', preset: 'generic' });
  });
  router.get('/export', validate({ query: exportRequestSchema }), (req, res) => send(req, res, req.query));
  router.post('/export', idempotencyKey, validate({ body: exportRequestSchema }), async (req, res) => {
    const request = req.body;
    if (!req.idempotencyKey) return send(req, res, request);
    const { answer, replayed } = await idempotency.run(req.owner, req.idempotencyKey, requestFingerprint('POST /api/export', request), async () => ({
      export: await service.keep(await service.prepare(req.owner, request)),
    }));
    if (replayed) res.set(IDEMPOTENT_REPLAYED_HEADER, 'true');
    await deliver(res, await service.kept(answer.export), request);
  });

  /** The Firefly III data importer's configuration for the Firefly CSV (same `dateFormat`). */
  router.get('/export/firefly-config', validate({ query: fireflyQuerySchema }), (req, res) => {
    res.set({ 'Content-Disposition': attachment('firefly-import-config.json'), 'Cache-Control': 'no-store' }).json(service.fireflyConfig(req.query));
  });
  return router;
}
