import { createRequire } from 'node:module';
import path from 'node:path';
import express, { Router } from 'express';
import { z } from 'zod';
import { route } from '../route-spec.js';
import { openApiDocument, type ApiMount, type DocumentInfo } from './openapi.document.js';

/** The document as JSON: an object whose exact shape is OpenAPI's, not ours to restate. */
const openApiAnswer = z.object({ openapi: z.literal('3.1.0'), info: z.object({ title: z.string(), version: z.string() }), paths: z.record(z.string(), z.unknown()) }).loose();

/**
 * GET /api/openapi.json: the document of every mounted route, made from their route specs on
 * first request (`mounts` is complete by then, this router among them) and kept.
 */
export function openApiRoutes(mounts: readonly ApiMount[], info: DocumentInfo): Router {
  const router = Router();
  let document: object | undefined;
  router.get(
    '/openapi.json',
    route({ summary: 'This API’s OpenAPI 3.1 document', tag: 'reference', scope: 'public', caller: 'anyone', answers: { 200: openApiAnswer } }),
    (_req, res) => {
      document ??= openApiDocument(mounts, info);
      res.json(document);
    },
  );
  return router;
}

const swaggerUiDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Receipts API reference</title>
    <link rel="stylesheet" href="/docs/api/assets/swagger-ui.css">
  </head>
  <body>
    <div id="reference"></div>
    <script src="/docs/api/assets/swagger-ui-bundle.js"></script>
    <script src="/docs/api/reference.js"></script>
  </body>
</html>
`;

// A file of its own, not an inline script: the site's CSP allows scripts from 'self' only.
const START = `window.ui = SwaggerUIBundle({ url: '/api/openapi.json', dom_id: '#reference', deepLinking: true, tryItOutEnabled: false });\n`;

/** /docs/api: the reference page, Swagger UI served from its npm package (no CDN) over /api/openapi.json. */
export function apiReferencePage(): Router {
  const router = Router();
  router.get('/', (_req, res) => {
    res.type('html').send(PAGE);
  });
  router.get('/reference.js', (_req, res) => {
    res.type('js').send(START);
  });
  router.use('/assets', express.static(swaggerUiDir, { index: false, maxAge: '1d' }));
  return router;
}
