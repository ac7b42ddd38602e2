import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ApiTokenCreated, CreateApiTokenInput } from '@receipts/common';
import { createLogger, openRuntime, parseConfig, schema, UploadRepository, UserRepository, type ExtractedReceipt, type Runtime } from '@receipts/infra';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll } from 'vitest';
import type { ZodType } from 'zod';
import { startApiServer, type ApiServer } from '../../api/src/api.server.js';
import { answerViolations } from '../../api/src/route-spec.js';
import { hashPassword } from '../../api/src/auth/password.js';
import { createSubscriber } from './accounts.js';
import { apiOnServices, provisionServices } from './services.js';
import { extracted, pngFile } from './upload-stack.js';
import { BearerVisitor, uniqueIp, Visitor } from './visitor.js';

const ADMIN_EMAIL = 'admin@example.test';
const PASSWORD = 'Route-test-1234';

/** An answer: its status and its body (JSON read, other bodies as text, nothing as null). */
export interface Answer<T = Record<string, any>> {
  status: number;
  body: T;
  headers: Headers;
}

/** One caller of the route tests: a browser-like visitor with its session cookie and address. */
export class Caller {
  constructor(readonly visitor: Visitor, readonly userId: string | null = null, readonly email: string | null = null) {}

  /** `headers` beside the visitor's own (an Idempotency-Key). */
  async send<T = Record<string, any>>(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer<T>> {
    if (method === 'GET') body = undefined;
    const json = body !== undefined && !(body instanceof FormData);
    const res = await this.visitor.request(url, {
      method,
      headers: { ...(json ? { 'Content-Type': 'application/json' } : {}), ...headers },
      body: json ? JSON.stringify(body) : (body as FormData | undefined),
    });
    const text = await res.text();
    const parsed = res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text || null;
    return { status: res.status, body: parsed as T, headers: res.headers };
  }

  get = <T = Record<string, any>>(url: string) => this.send<T>('GET', url);
  post = <T = Record<string, any>>(url: string, body?: unknown) => this.send<T>('POST', url, body);
  patch = <T = Record<string, any>>(url: string, body?: unknown) => this.send<T>('PATCH', url, body);
  put = <T = Record<string, any>>(url: string, body?: unknown) => this.send<T>('PUT', url, body);
  delete = <T = Record<string, any>>(url: string, body?: unknown) => this.send<T>('DELETE', url, body);
}

export type Kind = 'user' | 'unconfirmed' | 'admin' | 'subscriber';

/**
 * The api as it runs (startApiServer: every router, the session, the error handler) on a database
 * and Redis prefix of this test file's own, on 127.0.0.1 at a free port, for the route tests
 * beside each routes file. Callers are made straight in the database and sign in over HTTP.
 * Every answer is checked against its route's spec: closing fails on any that is not documented.
 */
export interface RouteApi {
  runtime: Runtime;
  server: ApiServer;
  baseUrl: string;
  /** A visitor without an account, from an address of its own. */
  anonymous(): Caller;
  /**
   * A signed-in caller of this kind (`admin` is the configured ADMIN_EMAILS address, confirmed).
   * One at a time: two sign-ins started together were seen to hang here.
   */
  signedIn(kind?: Kind): Promise<Caller>;
  /**
   * A script with an access token: sends `Authorization: Bearer <token>` from an address of its
   * own, without X-Requested-With, and no cookie unless `cookie` (a caller's session) is given.
   */
  bearer(token: string, options?: { cookie?: Caller }): Caller;
  /** A new access token of `owner`'s (a signed-in, confirmed caller), made over HTTP as the account page does. */
  token(owner: Caller, input?: Partial<CreateApiTokenInput>): Promise<ApiTokenCreated>;
  /** A receipt of `owner`'s: uploaded over HTTP, then completed with `fields` as a worker completes one. Its id. */
  receipt(owner: Caller, fields?: Partial<ExtractedReceipt>): Promise<string>;
  close(): Promise<void>;
}

export async function openRouteApi(env: Record<string, string> = {}): Promise<RouteApi> {
  const services = await provisionServices();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'route-api-'));
  const config = parseConfig(
    apiOnServices(services, dataDir, {
      // Each caller comes from an address of its own, so no rate limit is shared between them.
      TRUST_PROXY: 'loopback',
      ADMIN_EMAILS: ADMIN_EMAIL,
      // Every answer of the route tests is held to the API document (api/src/route-spec.ts).
      CHECK_API_ANSWERS: 'true',
      ...env,
    }),
  );
  const runtime = await openRuntime(config, createLogger({ level: 'silent', role: 'test' }));
  const server = await startApiServer(runtime, { intake: false });
  const baseUrl = `http://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  const users = new UserRepository(runtime.db);
  const uploadRows = new UploadRepository(runtime.db);
  const passwordHash = await hashPassword(PASSWORD);

  const account = async (kind: Kind): Promise<{ id: string; email: string }> => {
    if (kind === 'subscriber') {
      const { userId, email } = await createSubscriber(runtime.db);
      await runtime.db.update(schema.users).set({ passwordHash }).where(eq(schema.users.id, userId));
      return { id: userId, email };
    }
    const email = kind === 'admin' ? ADMIN_EMAIL : `${kind}-${randomUUID()}@example.test`;
    const row = (await users.insert({ email, username: kind, passwordHash })) ?? (await users.byEmail(email))!;
    if (kind !== 'unconfirmed') await runtime.db.update(schema.users).set({ emailVerifiedAt: new Date() }).where(eq(schema.users.id, row.id));
    return { id: row.id, email };
  };

  return {
    runtime,
    server,
    baseUrl,
    anonymous: () => new Caller(new Visitor(baseUrl, uniqueIp())),
    bearer: (token, options) => new Caller(new BearerVisitor(baseUrl, token, uniqueIp(), options?.cookie?.visitor.cookie)),
    async token(owner, input = {}) {
      const made = await owner.post<ApiTokenCreated>('/api/user/tokens', { name: 'route test', scopes: ['receipts:read'], ...input });
      if (made.status !== 201) throw new Error(`token: ${made.status} ${JSON.stringify(made.body)}`);
      return made.body;
    },
    async signedIn(kind = 'user') {
      const { id, email } = await account(kind);
      const caller = new Caller(new Visitor(baseUrl, uniqueIp()), id, email);
      const login = await caller.post('/api/auth/login', { email, password: PASSWORD });
      if (login.status !== 200) throw new Error(`sign-in of a ${kind}: ${login.status} ${JSON.stringify(login.body)}`);
      return caller;
    },
    async receipt(owner, fields = {}) {
      const form = new FormData();
      const file = pngFile();
      form.append('file', new Blob([new Uint8Array(file.buffer)]), file.originalname);
      const upload = await owner.post('/api/ocr', form);
      if (upload.status !== 202) throw new Error(`upload: ${upload.status} ${JSON.stringify(upload.body)}`);
      await uploadRows.claim(upload.body.id);
      return (await uploadRows.complete(upload.body.id, extracted(fields)))!.id;
    },
    async close() {
      await server.close(1000);
      await runtime.close();
      await services.cleanup();
      await rm(dataDir, { recursive: true, force: true });
      if (answerViolations.length) throw new Error(`Answers not in the API document:\n${answerViolations.join('\n')}`);
    },
  };
}

export const ROUTE_TEST_PASSWORD = PASSWORD;

/**
 * The api for the tests of one file: opened before them, closed after them. The object is filled
 * in by the time the first test (or a later beforeAll) runs.
 */
export function withRouteApi(env: Record<string, string> = {}): RouteApi {
  const api = {} as RouteApi;
  beforeAll(async () => {
    Object.assign(api, await openRouteApi(env));
  }, 120_000);
  afterAll(async () => {
    await api.close?.();
  });
  return api;
}

/** How the api refuses `input` that `schema` does not take: 400, VALIDATION_FAILED, the schema's first problem. */
export function invalid(schema: ZodType, input: unknown): { status: number; body: { error: string; message: string } } {
  const result = schema.safeParse(input);
  if (result.success) throw new Error(`the schema takes ${JSON.stringify(input)}`);
  return { status: 400, body: { error: 'VALIDATION_FAILED', message: result.error.issues[0]!.message } };
}
