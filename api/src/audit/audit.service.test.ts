import { randomUUID } from 'node:crypto';
import { AUDIT_MESSAGES, personalWorkspace } from '@receipts/common';
import { AuditRepository, UserRepository } from '@receipts/infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../../tests/support/database.js';
import { teamWorkspace } from '../../../tests/support/workspaces.js';
import { HttpError } from '../http-error.js';
import { AuditService, decodeCursor, encodeCursor } from './audit.service.js';

// Real PostgreSQL.
describe('AuditService', () => {
  let database: TestDatabase;
  let service: AuditService;
  let users: UserRepository;

  beforeAll(async () => {
    database = await openTestDatabase();
    service = new AuditService(new AuditRepository(database.db));
    users = new UserRepository(database.db);
  }, 120_000);

  afterAll(async () => {
    await database?.close();
  });

  const export1 = { format: 'xlsx', preset: 'generic', receipts: 1 } as const;

  it('records an act in the workspace the account acts in, and nothing for an anonymous visitor', async () => {
    const user = (await users.insert({ email: `actor-${randomUUID()}@example.test`, username: 'actor', passwordHash: 'x' }))!;
    const team = await teamWorkspace(database.db, user.id);
    await service.record({ userId: user.id, anonId: null, clientIp: null, workspace: { id: team, role: 'owner', personal: false } }, 'export.downloaded', export1);
    await service.record({ userId: null, anonId: randomUUID(), clientIp: null }, 'export.downloaded', export1);
    expect((await service.page(team, { limit: 10 })).events).toEqual([expect.objectContaining({ action: 'export.downloaded', actor: user.email, detail: export1 })]);
    expect((await service.page(personalWorkspace(user.id).id, { limit: 10 })).events).toEqual([]);
    expect(await service.ownActs(user.id)).toHaveLength(1);
  });

  it('reads back the cursors it gives, and refuses any other text', () => {
    const cursor = { at: '2026-05-01T09:30:00.123456Z', id: randomUUID() };
    expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
    for (const text of ['', 'nonsense', Buffer.from(`2026-05-01T09:30:00.123Z_${cursor.id}`).toString('base64url'), Buffer.from(`${cursor.at}_x`).toString('base64url')]) {
      expect(() => decodeCursor(text)).toThrow(new HttpError(400, 'VALIDATION_FAILED', AUDIT_MESSAGES.cursorInvalid));
    }
  });
});
