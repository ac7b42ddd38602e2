import { randomUUID } from 'node:crypto';
import { metrics, metricsAccess, renderMetrics, type Config, type Logger } from '@receipts/infra';
import type { Request, RequestHandler } from 'express';
import { HttpError, notFound } from './http-error.js';

declare global {
  namespace Express {
    interface Request {
      /** This request's id: the caller's X-Request-Id when it is sane, else a new one. */
      id: string;
      /** The process logger with this request's id on every line. */
      log: Logger;
    }
  }
}

/** Ids a proxy or client may pass on; anything else (too long, odd characters) is replaced. */
const SANE_REQUEST_ID = /^[\w.:-]{1,128}$/;

/** Paths polled by orchestrators and Prometheus: measured, but not logged line by line. */
const QUIET_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * A route pattern (`/api/uploads/:id`), never the raw path, so metric labels stay few. Express
 * restores baseUrl when an error leaves a router, so the mount path is then recovered from the
 * path's leading segments the pattern does not cover.
 */
function routeLabel(req: Request): string {
  const pattern = req.route?.path;
  if (typeof pattern === 'string') {
    let base = req.baseUrl ?? '';
    if (!base && !pattern.includes('*')) {
      const segments = req.originalUrl.split('?')[0]!.split('/').filter(Boolean);
      const own = pattern.split('/').filter(Boolean).length;
      base = segments.length > own ? `/${segments.slice(0, segments.length - own).join('/')}` : '';
    }
    return `${base}${pattern === '/' && base ? '' : pattern}`;
  }
  if (QUIET_PATHS.has(req.path)) return req.path;
  return req.originalUrl.startsWith('/api/') ? 'unmatched' : 'static';
}

/**
 * First middleware: gives the request an id (returned as X-Request-Id and carried into the
 * job it queues), a logger carrying it, an access log line and the latency histogram.
 */
export function requestContext(log: Logger): RequestHandler {
  return (req, res, next) => {
    const incoming = req.get('x-request-id');
    req.id = incoming && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    req.log = log.child({ requestId: req.id });
    res.setHeader('X-Request-Id', req.id);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = routeLabel(req);
      metrics.httpDuration.observe({ method: req.method, route, status: String(res.statusCode) }, seconds);
      if (QUIET_PATHS.has(req.originalUrl)) return;
      // A token's requests are told apart by its id (never its text), to see what a script did.
      const line = { method: req.method, url: req.originalUrl, status: res.statusCode, ms: Math.round(seconds * 1000), ...(req.token ? { tokenId: req.token.id } : {}) };
      if (req.originalUrl.startsWith('/api/') || res.statusCode >= 500) req.log.info(line, 'request');
      else req.log.debug(line, 'request');
    });
    next();
  };
}

/** GET /metrics: Prometheus text, behind METRICS_TOKEN when one is set, not there unless it is or METRICS_PUBLIC opens it. */
export function metricsRoute(config: Pick<Config, 'METRICS_TOKEN' | 'METRICS_PUBLIC'>): RequestHandler {
  return async (req, res) => {
    const access = metricsAccess(req.get('authorization'), config);
    if (access === 'closed') throw notFound();
    if (access === 'unauthorized') throw new HttpError(401, 'UNAUTHENTICATED', 'Send the metrics token as a bearer token.');
    const { contentType, body } = await renderMetrics();
    res.type(contentType).send(body);
  };
}
