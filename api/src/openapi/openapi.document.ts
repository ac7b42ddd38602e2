import { createRequire } from 'node:module';
import { apiErrorSchema, ERROR_CODES, TOKEN_SCOPES, WORKSPACE_HEADER, WORKSPACE_ROLES, workspaceAllows } from '@receipts/common';
import type { Router } from 'express';
import { z, type ZodType } from 'zod';
import { SESSION_COOKIE } from '../session.js';
import { answersOf, isFileAnswer, specOf, type Answer, type RouteSpec } from '../route-spec.js';

/** A router of the api and where it is mounted under `/api` ('' for `/api` itself). */
export interface ApiMount {
  path: string;
  router: Router;
}

/** One route found in a mounted router: its method, its full path (Express syntax) and its spec if it has one. */
interface FoundRoute {
  method: string;
  path: string;
  spec: RouteSpec | undefined;
}

interface RouterLayer {
  route?: { path: string; methods: Record<string, boolean>; stack: Array<{ handle: unknown }> };
}

/** Every route of the mounted routers, in mount order. */
export function routesOf(mounts: readonly ApiMount[]): FoundRoute[] {
  const found: FoundRoute[] = [];
  for (const mount of mounts) {
    for (const layer of mount.router.stack as RouterLayer[]) {
      if (!layer.route) continue;
      const spec = layer.route.stack.map((h) => specOf(h.handle)).find(Boolean);
      for (const method of Object.keys(layer.route.methods)) {
        if (method === '_all') continue;
        // A mount's own route ('/' under '/intake') is the mount's path, as Express matches it.
        const path = layer.route.path === '/' && mount.path ? `/api${mount.path}` : `/api${mount.path}${layer.route.path}`;
        found.push({ method, path, spec });
      }
    }
  }
  return found;
}

/** Routes without a spec: the document would lack them, so the api refuses to start with any. */
export function undocumentedRoutes(mounts: readonly ApiMount[]): string[] {
  return routesOf(mounts)
    .filter((r) => !r.spec)
    .map((r) => `${r.method.toUpperCase()} ${r.path}`);
}

/** `/receipts/:id/pages/:page` as OpenAPI writes it: `/receipts/{id}/pages/{page}`. */
export const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

type JsonSchema = Record<string, unknown>;

/** A zod schema as JSON Schema 2020-12 (OpenAPI 3.1's own dialect), for the request's side or the answer's. */
function jsonSchema(schema: ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    override: (ctx) => {
      // Dates travel as ISO strings.
      if ((ctx.zodSchema as { _zod?: { def?: { type?: string } } })._zod?.def?.type === 'date') Object.assign(ctx.jsonSchema, { type: 'string', format: 'date-time' });
    },
  });
  return rest;
}

function answerObject(status: number, answer: Answer | readonly string[] | ZodType): JsonSchema {
  if (answer === null) return { description: status === 204 ? 'No content' : 'Done' };
  if (isFileAnswer(answer)) return { description: answer.description, content: Object.fromEntries(answer.media.map((m) => [m, { schema: { type: 'string', contentEncoding: 'binary' } }])) };
  if (Array.isArray(answer)) {
    const schema = { allOf: [{ $ref: '#/components/schemas/ApiError' }, { type: 'object', properties: { error: { enum: answer } } }] };
    return { description: `Error: ${answer.join(', ')}`, content: { 'application/json': { schema } } };
  }
  return { description: status >= 400 ? 'Error' : 'OK', content: { 'application/json': { schema: jsonSchema(answer as ZodType, 'output') } } };
}

/** A request part's object schema as OpenAPI parameters (`in: path` or `query`). */
function parameters(schema: ZodType | undefined, where: 'path' | 'query'): JsonSchema[] {
  if (!schema) return [];
  const object = jsonSchema(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(object.properties ?? {}).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || (object.required ?? []).includes(name),
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
    schema: property,
  }));
}

function requestBody(spec: RouteSpec): JsonSchema | undefined {
  if (spec.bodyMedia === 'raw') return { required: true, content: { 'application/octet-stream': { schema: { type: 'string', contentEncoding: 'binary' } } } };
  if (!spec.body) return undefined;
  const schema = jsonSchema(spec.body, 'input');
  if (spec.bodyMedia === 'multipart/form-data') {
    const withFile = { ...schema, type: 'object', properties: { file: { type: 'string', contentEncoding: 'binary', description: 'The receipt: an image or a PDF.' }, ...((schema.properties as object) ?? {}) }, required: ['file', ...((schema.required as string[]) ?? [])] };
    return { required: true, content: { 'multipart/form-data': { schema: withFile } } };
  }
  return { required: true, content: { 'application/json': { schema } } };
}

function security(spec: RouteSpec): JsonSchema[] {
  if (spec.caller === 'signature') return [];
  if (spec.scope === 'public') return [{}];
  const session = spec.caller === 'anyone' ? [{}, { session: [] }] : [{ session: [] }];
  return spec.scope ? [...session, { token: [spec.scope] }] : session;
}

const WORKSPACE_HEADER_DESCRIPTION = 'The workspace the request acts in (an id from GET /api/workspaces); without it, the one the session switched to, else your own.';

function operation(route: FoundRoute & { spec: RouteSpec }): JsonSchema {
  const { spec } = route;
  const responses = Object.fromEntries([...answersOf(spec)].sort(([a], [b]) => a - b).map(([status, answer]) => [String(status), answerObject(status, answer)]));
  const headers = Object.entries(spec.headers ?? {}).map(([name, description]) => ({ name, in: 'header', required: false, description, schema: { type: 'string' } }));
  if (spec.workspace) headers.push({ name: WORKSPACE_HEADER, in: 'header', required: false, description: WORKSPACE_HEADER_DESCRIPTION, schema: { type: 'string' } });
  const body = requestBody(spec);
  const roles = spec.workspace ? WORKSPACE_ROLES.filter((role) => workspaceAllows(role, spec.workspace!, { personal: false })) : null;
  const description = [spec.description, roles && `In a team workspace: ${roles.join(', ')}.`].filter(Boolean).join(' ');
  return {
    operationId: operationId(route),
    summary: spec.summary,
    ...(description ? { description } : {}),
    ...(spec.workspace ? { 'x-workspace-action': spec.workspace, 'x-workspace-roles': roles } : {}),
    tags: [spec.tag],
    parameters: [...parameters(spec.params, 'path'), ...parameters(spec.query, 'query'), ...headers],
    ...(body ? { requestBody: body } : {}),
    security: security(spec),
    responses,
  };
}

/** `post /api/receipts/{id}/issues/accept` → `postReceiptsIdIssuesAccept`: stable names for generated clients. */
function operationId(route: FoundRoute): string {
  const words = route.path
    .replace(/^\/api\/?/, '')
    .split(/[/:{}\-_]+/)
    .filter(Boolean);
  return route.method + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
}

export interface DocumentInfo {
  publicUrl: string;
}

/** The api package's version names the document's. */
const { version } = createRequire(import.meta.url)('../../package.json') as { version: string };

/** The OpenAPI 3.1 document of every route of the mounted routers, from their route specs. */
export function openApiDocument(mounts: readonly ApiMount[], info: DocumentInfo): JsonSchema {
  const missing = undocumentedRoutes(mounts);
  if (missing.length) throw new Error(`Routes without a route spec: ${missing.join(', ')}`);
  const routes = routesOf(mounts) as Array<FoundRoute & { spec: RouteSpec }>;
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    (paths[openApiPath(route.path)] ??= {})[route.method] = operation(route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Receipts API',
      version,
      description:
        'Upload receipts, follow them through the queue, read and correct their fields, and export them. ' +
        'Call it with a personal access token (`Authorization: Bearer …`, made on the account page) or from the web app’s session. ' +
        `Every error is \`{ error, message }\`; the codes are ${ERROR_CODES.join(', ')}.`,
    },
    servers: [{ url: info.publicUrl }],
    tags: [...new Set(routes.map((r) => r.spec.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas: { ApiError: jsonSchema(apiErrorSchema, 'output') },
      securitySchemes: {
        token: { type: 'http', scheme: 'bearer', description: `A personal access token. Scopes: ${TOKEN_SCOPES.join(', ')}.` },
        session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: 'The web app’s session; state-changing requests also send `X-Requested-With: XMLHttpRequest`.' },
      },
    },
  };
}
