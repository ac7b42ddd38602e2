import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type http from 'node:http';
import { isEmailVerified, API_TOKEN_MESSAGES } from '@receipts/common';
import { ApiTokenRepository, createLogger, schema, UserRepository, WorkspaceRepository } from '@receipts/infra';
import { eq } from 'drizzle-orm';
import express from 'express';
import session from 'express-session';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../../tests/support/database.js';
import { errorHandler } from '../http-error.js';
import { requireUser, resolveOwner, sessionUnlessToken } from '../owner.middleware.js';
import { requireXhrHeader } from '../security.js';
import { sessionMiddleware } from '../session.js';
import { ApiTokenService } from './api-token.service.js';
import { bearerAuth, bearerCredentials } from './bearer-auth.middleware.js';

describe('bearerCredentials', () => {
  it('reads a bearer token in any case of the scheme, and nothing of other schemes', () => {
    expect(bearerCredentials('Bearer rct_abc')).toBe('rct_abc');
    expect(bearerCredentials('bearer   rct_abc  ')).toBe('rct_abc');
    expect(bearerCredentials('Bearer')).toBe('');
    expect(bearerCredentials('Basic dXNlcjpwYXNz')).toBeNull();
    expect(bearerCredentials('Bearerish x')).toBeNull();
    expect(bearerCredentials(undefined)).toBeNull();
  });
});

// The middleware in the order api.server.ts mounts it, with a real session and real PostgreSQL.
describe('bearerAuth', { timeout: 60_000 }, () => {
  const PER_MINUTE = 3;
  let database: TestDatabase;
  let service: ApiTokenService;
  let users: UserRepository;
  let server: http.Server;
  let baseUrl: string;

  beforeAll(async () => {
    database = await openTestDatabase();
    users = new UserRepository(database.db);
    service = new ApiTokenService(new ApiTokenRepository(database.db), { isEmailVerified: (user) => isEmailVerified(user, []) });
    const log = createLogger({ level: 'silent', role: 'test' });
    const app = express();
    const limiter = new RateLimiterMemory({ points: PER_MINUTE, duration: 60 });
    const withSession = sessionMiddleware({ store: new session.MemoryStore(), secret: 'a secret of the test', secure: false });
    app.use(bearerAuth(service, limiter, log), requireXhrHeader([]), sessionUnlessToken(withSession), resolveOwner(new WorkspaceRepository(database.db)));
    const seen = (req: express.Request) => ({ owner: req.owner, token: req.token ?? null, session: req.session !== undefined });
    app.get('/seen', (req, res) => {
      res.json(seen(req));
    });
    app.post('/seen', requireUser, (req, res) => {
      res.json(seen(req));
    });
    app.use(errorHandler(log));
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }, 120_000);

  afterAll(async () => {
    server?.close();
    await database?.close();
  });

  async function tokenOfNewAccount(scopes: Array<'receipts:read' | 'receipts:write' | 'export'> = ['receipts:read']) {
    const row = (await users.insert({ email: `${randomUUID()}@example.test`, username: 'u', passwordHash: 'x' }))!;
    await database.db.update(schema.users).set({ emailVerifiedAt: new Date() }).where(eq(schema.users.id, row.id));
    const made = await service.create((await users.byId(row.id))!, { name: 'test', scopes });
    return { userId: row.id, ...made };
  }

  const call = async (method: string, headers: Record<string, string>) => {
    const res = await fetch(`${baseUrl}/seen`, { method, headers });
    return { status: res.status, body: (await res.json()) as Record<string, any>, headers: res.headers };
  };

  it('leaves a request without a bearer token to the session', async () => {
    const answer = await call('GET', { Authorization: 'Basic dXNlcjpwYXNz' });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ token: null, session: true, owner: { userId: null, anonId: expect.any(String) } });
    expect(answer.headers.getSetCookie().some((c) => c.startsWith('rsid='))).toBe(true);
  });

  it('makes a token request its account’s, without session, cookie or X-Requested-With', async () => {
    const made = await tokenOfNewAccount(['receipts:read', 'export']);
    const cookie = (await call('GET', {})).headers.getSetCookie()[0]!.split(';')[0]!;
    const answer = await call('POST', { Authorization: `Bearer ${made.token}`, cookie });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      owner: { userId: made.userId, anonId: null, clientIp: '127.0.0.1', workspace: { id: made.userId, role: 'owner', personal: true } },
      token: { id: made.id, userId: made.userId, scopes: ['receipts:read', 'export'] },
      session: false,
    });
    expect(answer.headers.getSetCookie()).toEqual([]);
    // The same cookie without the token is an anonymous session, and needs the header to post.
    expect((await call('POST', { cookie })).status).toBe(403);
  });

  it('refuses an unknown or revoked token with 401 and WWW-Authenticate, whatever session comes with it', async () => {
    const made = await tokenOfNewAccount();
    const unknown = await call('GET', { Authorization: `Bearer ${made.token.slice(0, -2)}xx` });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual({ error: 'UNAUTHENTICATED', message: API_TOKEN_MESSAGES.unknown });
    expect(unknown.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    expect((await call('GET', { Authorization: 'Bearer' })).status).toBe(401);
    await service.revoke(made.userId, made.id);
    const revoked = await call('GET', { Authorization: `Bearer ${made.token}` });
    expect(revoked.status).toBe(401);
    expect(revoked.body.message).toBe(API_TOKEN_MESSAGES.revoked);
    expect(revoked.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('answers 429 with Retry-After past the token’s rate; another token has its own', async () => {
    const [made, other] = [await tokenOfNewAccount(), await tokenOfNewAccount()];
    const statuses = [];
    for (let i = 0; i < PER_MINUTE; i++) statuses.push((await call('GET', { Authorization: `Bearer ${made.token}` })).status);
    expect(statuses).toEqual(Array(PER_MINUTE).fill(200));
    const refused = await call('GET', { Authorization: `Bearer ${made.token}` });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe('RATE_LIMITED');
    expect(refused.body.message).toContain(`more than ${PER_MINUTE} requests in a minute`);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect((await call('GET', { Authorization: `Bearer ${other.token}` })).status).toBe(200);
  });
});
