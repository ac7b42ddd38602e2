import { validate } from '@readme/openapi-parser';
import type { Express } from 'express';
import { describe, expect, it } from 'vitest';
import { withRouteApi } from '../../../tests/support/route-api.js';
import { routesOf, openApiPath, type ApiMount } from './openapi.document.js';

interface AppLayer {
  handle: { stack?: unknown[] };
  /** Whether the layer takes a request for `path` (a root mount takes every path). */
  match(path: string): boolean;
}

/** Pages of their own beside the api: the web app's files (mounted at the root), the queue dashboard, this reference. */
const NOT_API = ['/index.html', '/admin/queues/x', '/docs/api/x'];

/** The routers the running app mounts anywhere but the pages beside the api. */
function apiRouters(app: Express): unknown[] {
  const layers = (app as unknown as { router: { stack: AppLayer[] } }).router.stack;
  const routers = layers.filter((layer) => Array.isArray(layer.handle.stack));
  return routers.filter((layer) => !NOT_API.some((path) => layer.match(path))).map((layer) => layer.handle);
}

describe('/api/openapi.json and /docs/api', () => {
  const api = withRouteApi();
  const app = () => api.server.app;

  it('documents every route of every router the api mounts under /api', async () => {
    const documented = app().locals.documentedMounts as ApiMount[];
    const routers = apiRouters(app());
    expect(routers.length).toBeGreaterThan(10);
    // A router mounted beside the list would have routes the document lacks.
    expect(routers.filter((router) => !documented.some((mount) => mount.router === router))).toEqual([]);

    const res = await api.anonymous().get('/api/openapi.json');
    expect(res.status).toBe(200);
    const operations = Object.entries(res.body.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) => Object.keys(item).map((method) => `${method} ${path}`));
    const routes = routesOf(documented).map((route) => `${route.method} ${openApiPath(route.path)}`);
    expect(operations.sort()).toEqual([...new Set(routes)].sort());
    expect(operations).toEqual(expect.arrayContaining(['post /api/ocr', 'get /api/receipts/{id}', 'post /api/export', 'get /api/openapi.json']));
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const { body } = await api.anonymous().get('/api/openapi.json');
    const result = await validate(structuredClone(body) as Parameters<typeof validate>[0]);
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(body.openapi).toBe('3.1.0');
  });

  it('describes every error in the api’s error shape', async () => {
    const { body } = await api.anonymous().get('/api/openapi.json');
    for (const [path, item] of Object.entries(body.paths as Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>>)) {
      for (const [method, operation] of Object.entries(item)) {
        for (const [status, answer] of Object.entries(operation.responses)) {
          if (Number(status) < 400) continue;
          const schema = JSON.stringify(answer.content?.['application/json']?.schema ?? null);
          expect(schema.includes('#/components/schemas/ApiError') || schema.includes('"error"'), `${method} ${path} ${status}`).toBe(true);
        }
      }
    }
    expect(body.components.schemas.ApiError).toMatchObject({ type: 'object', required: ['error', 'message'] });
  });

  it('serves the reference page and its assets from the npm package', async () => {
    const visitor = api.anonymous();
    const page = await visitor.get('/docs/api');
    expect(page.status).toBe(200);
    expect(page.body).toContain('/docs/api/assets/swagger-ui-bundle.js');
    const script = await visitor.get('/docs/api/reference.js');
    expect(script.body).toContain("url: '/api/openapi.json'");
    const bundle = await visitor.get('/docs/api/assets/swagger-ui-bundle.js');
    expect({ status: bundle.status, type: bundle.headers.get('content-type')?.split(';')[0] }).toEqual({ status: 200, type: 'text/javascript' });
  });
});
