import type { AddressInfo } from 'node:net';
import type http from 'node:http';
import { SessionRepository } from '@receipts/infra';
import express from 'express';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../tests/support/database.js';
import { DatabaseSessionStore, regenerateSignedIn, sessionMiddleware, TOUCH_INTERVAL_MS } from './session.js';

// The session middleware and store over a real database: which requests cost a session read.
describe('sessions', () => {
  let database: TestDatabase;
  let sessions: SessionRepository;
  let store: DatabaseSessionStore;
  let server: http.Server;
  let baseUrl: string;
  let clock = Date.now();

  beforeAll(async () => {
    database = await openTestDatabase();
    sessions = new SessionRepository(database.db);
    store = new DatabaseSessionStore(sessions, false, () => clock);
    const app = express();
    app.use(sessionMiddleware({ store, secret: 'test-secret', secure: false }));
    app.get('/who', (req, res) => {
      res.json({ sid: req.sessionID, userId: req.session.userId ?? null });
    });
    app.post('/sign-in', async (req, res) => {
      await regenerateSignedIn(req);
      req.session.userId = '00000000-0000-4000-8000-000000000001';
      await new Promise<void>((resolve, reject) => req.session.save((err) => (err ? reject(err) : resolve())));
      res.json({ sid: req.sessionID });
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await database.close();
  });

  beforeEach(() => vi.restoreAllMocks());

  /** A request with `cookie`; returns the answer and the cookie to send next. */
  async function request(path: string, cookie = '', method = 'GET') {
    const res = await fetch(`${baseUrl}${path}`, { method, headers: cookie ? { cookie } : {} });
    const set = res.headers.get('set-cookie');
    return { body: (await res.json()) as { sid: string; userId?: string | null }, cookie: set ? set.split(';')[0]! : cookie };
  }

  it('gives a new visitor an anonymous id whose requests read and write no stored session', async () => {
    const first = await request('/who');
    expect(first.body.sid).toMatch(/^anon-/);
    const read = vi.spyOn(sessions, 'get');
    const writes = [vi.spyOn(sessions, 'set'), vi.spyOn(sessions, 'touch'), vi.spyOn(sessions, 'destroy')];
    const again = await request('/who', first.cookie);
    expect(again.body).toEqual({ sid: first.body.sid, userId: null });
    expect(read).not.toHaveBeenCalled();
    for (const write of writes) expect(write).not.toHaveBeenCalled();
  });

  it('moves a visitor signing in to a new id that holds the account and is read back', async () => {
    const anonymous = await request('/who');
    const signedIn = await request('/sign-in', anonymous.cookie, 'POST');
    expect(signedIn.body.sid).toMatch(/^user-/);
    const read = vi.spyOn(sessions, 'get');
    const who = await request('/who', signedIn.cookie);
    expect(who.body).toEqual({ sid: signedIn.body.sid, userId: '00000000-0000-4000-8000-000000000001' });
    expect(read).toHaveBeenCalledWith(signedIn.body.sid);
    // Signing in did not leave later new visitors with accounts' ids.
    expect((await request('/who')).body.sid).toMatch(/^anon-/);
  });

  it("writes a signed-in session's rolled expiry once per interval, not on every request", async () => {
    const signedIn = await request('/sign-in', (await request('/who')).cookie, 'POST');
    const touch = vi.spyOn(sessions, 'touch');
    for (let i = 0; i < 3; i++) expect((await request('/who', signedIn.cookie)).body.userId).toBe('00000000-0000-4000-8000-000000000001');
    // Signing in wrote the whole session, expiry included, a moment ago.
    expect(touch).not.toHaveBeenCalled();
    clock += TOUCH_INTERVAL_MS;
    await request('/who', signedIn.cookie);
    await request('/who', signedIn.cookie);
    expect(touch).toHaveBeenCalledTimes(1);
    expect(touch).toHaveBeenCalledWith(signedIn.body.sid, expect.any(Date));
    clock += TOUCH_INTERVAL_MS;
    await request('/who', signedIn.cookie);
    expect(touch).toHaveBeenCalledTimes(2);
  });

  it('refuses to store data under an anonymous id, where it would never be read', async () => {
    const error = await new Promise((resolve) => store.set('anon-abc', { userId: 'u', cookie: {} } as never, resolve));
    expect(String(error)).toContain('anonymous session id cannot hold data');
    expect(await sessions.get('anon-abc')).toBeNull();
  });

  it('still looks up an id made before anonymous ids were marked', async () => {
    const read = vi.spyOn(sessions, 'get');
    await sessions.set('older-id', { userId: 'u1' }, new Date(Date.now() + 60_000));
    const found = await new Promise((resolve, reject) => store.get('older-id', (err, sess) => (err ? reject(err) : resolve(sess))));
    expect(found).toMatchObject({ userId: 'u1' });
    expect(read).toHaveBeenCalledWith('older-id');
  });
});
