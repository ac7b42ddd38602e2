import { Router } from 'express';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { route } from '../route-spec.js';
import { openApiDocument, openApiPath, undocumentedRoutes, type ApiMount } from './openapi.document.js';

const item = z.object({ id: z.uuid(), total: z.number().nullable() });

function mounts(): ApiMount[] {
  const items = Router();
  items.get('/items/:id', route({ summary: 'An item', tag: 'items', scope: 'receipts:read', caller: 'anyone', params: z.object({ id: z.uuid() }), answers: { 200: item }, errors: { 404: ['NOT_FOUND'] } }), (_req, res) => {
    res.end();
  });
  items.post('/items', route({ summary: 'Add an item', tag: 'items', scope: null, caller: 'account', body: z.object({ total: z.number() }), query: z.object({ dry: z.literal('1').optional() }), answers: { 201: item } }), (_req, res) => {
    res.end();
  });
  const files = Router();
  files.get('/file', route({ summary: 'A file', tag: 'files', scope: 'public', caller: 'anyone', workspace: 'export', answers: { 200: { media: ['text/csv'], description: 'CSV' } } }), (_req, res) => {
    res.end();
  });
  return [
    { path: '', router: items },
    { path: '/user', router: files },
  ];
}

describe('openApiDocument', () => {
  const doc = openApiDocument(mounts(), { publicUrl: 'https://receipts.example' }) as any;

  it('describes every route under its full path, in OpenAPI’s path syntax', () => {
    expect(Object.keys(doc.paths)).toEqual(['/api/items/{id}', '/api/items', '/api/user/file']);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: 'https://receipts.example' }]);
  });

  it('names the workspace action a route needs, the roles it allows, and the header that picks the workspace', () => {
    const file = doc.paths['/api/user/file'].get;
    expect(file['x-workspace-action']).toBe('export');
    expect(file['x-workspace-roles']).toEqual(['owner', 'admin', 'accountant']);
    expect(file.description).toBe('In a team workspace: owner, admin, accountant.');
    expect(file.parameters.map((p: { name: string; in: string }) => `${p.in} ${p.name}`)).toEqual(['header X-Workspace-Id']);
    expect(doc.paths['/api/items/{id}'].get['x-workspace-action']).toBeUndefined();
  });

  it('takes parameters and bodies from the route’s own schemas', () => {
    const get = doc.paths['/api/items/{id}'].get;
    expect(get.parameters).toEqual([{ name: 'id', in: 'path', required: true, schema: expect.objectContaining({ type: 'string', format: 'uuid' }) }]);
    const post = doc.paths['/api/items'].post;
    expect(post.parameters).toEqual([{ name: 'dry', in: 'query', required: false, schema: { type: 'string', const: '1' } }]);
    expect(post.requestBody.content['application/json'].schema).toMatchObject({ type: 'object', properties: { total: { type: 'number' } }, required: ['total'] });
  });

  it('describes answers and errors with their codes', () => {
    const get = doc.paths['/api/items/{id}'].get;
    expect(Object.keys(get.responses)).toEqual(['200', '400', '401', '403', '404', '429', '500', '503']);
    expect(get.responses['200'].content['application/json'].schema.properties.total).toEqual({ type: ['number', 'null'] });
    expect(get.responses['404'].content['application/json'].schema.allOf[1].properties.error).toEqual({ enum: ['NOT_FOUND'] });
    expect(doc.paths['/api/user/file'].get.responses['200'].content).toEqual({ 'text/csv': { schema: { type: 'string', contentEncoding: 'binary' } } });
  });

  it('names who may call: a session, anonymous visitors, a token of the route’s scope', () => {
    expect(doc.paths['/api/items/{id}'].get.security).toEqual([{}, { session: [] }, { token: ['receipts:read'] }]);
    expect(doc.paths['/api/items'].post.security).toEqual([{ session: [] }]);
    expect(doc.paths['/api/user/file'].get.security).toEqual([{}]);
    expect(doc.components.securitySchemes.token).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('gives every operation an id of its own', () => {
    const ids = Object.values(doc.paths).flatMap((item: any) => Object.values(item).map((op: any) => op.operationId));
    expect(ids).toEqual(['getItemsId', 'postItems', 'getUserFile']);
  });
});

describe('undocumentedRoutes', () => {
  it('names a route that has no route spec, and refuses to make the document', () => {
    const list = mounts();
    list[1]!.router.delete('/file', (_req, res) => {
      res.end();
    });
    expect(undocumentedRoutes(list)).toEqual(['DELETE /api/user/file']);
    expect(() => openApiDocument(list, { publicUrl: 'http://x' })).toThrow('Routes without a route spec: DELETE /api/user/file');
  });

  it('finds none when every route has one', () => {
    expect(undocumentedRoutes(mounts())).toEqual([]);
  });
});

describe('openApiPath', () => {
  it.each([
    ['/api/receipts/:id/pages/:page', '/api/receipts/{id}/pages/{page}'],
    ['/api/uploads', '/api/uploads'],
  ])('%s → %s', (express, openapi) => {
    expect(openApiPath(express)).toBe(openapi);
  });
});
