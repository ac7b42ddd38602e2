import { randomUUID } from 'node:crypto';
import { WORKSPACE_HEADER, WORKSPACE_MESSAGES, WORKSPACE_ROLES, workspaceAllows, type WorkspaceAction, type WorkspaceRole } from '@receipts/common';
import { schema, UploadRepository } from '@receipts/infra';
import { beforeAll, describe, expect, it } from 'vitest';
import { extracted, pngFile } from './support/upload-stack.js';
import { withRouteApi, type Answer, type Caller } from './support/route-api.js';

/** An operation of the API document: how to call it, and what it declares about workspaces. */
interface Operation {
  method: string;
  path: string;
  caller: 'anyone' | 'account' | 'signature';
  action: WorkspaceAction | null;
  name: string;
}

/**
 * A body each route that changes a receipt takes, so the walk reaches the receipt's lookup (an
 * empty body would stop at validation and prove nothing about who may find it).
 */
const VALID_BODIES: Record<string, unknown> = {
  'PATCH /api/receipts/{id}': { merchantName: 'Changed by someone else' },
  'POST /api/receipts/{id}/issues/accept': { issue: 'total' },
  'POST /api/receipts/{id}/issues/reopen': { issue: 'total' },
};

/** A path of the document with its parameters filled: ids with `id`, anything else with a harmless word. */
const fill = (path: string, id: string) => path.replace(/\{(\w+)\}/g, (_m, name: string) => (/id$/i.test(name) ? id : name === 'page' ? '1' : 'nothing-here'));

// Every route of the API document, walked with every role of a team workspace, a user of
// another workspace and an anonymous visitor: the policy's answer at the route, and nothing of
// the workspace leaks to who may not see it (404, never its data).
describe('authorization over every route', () => {
  const api = withRouteApi();
  const people = {} as Record<WorkspaceRole | 'outsider', Caller>;
  let operations: Operation[] = [];
  /** A workspace with the four people in their roles, and receipts the owner and the member uploaded there. */
  let team: { id: string; ownerReceipt: string; ownerUpload: string; memberReceipt: string; memberUpload: string };

  /** A new team workspace of the four, for a walk that may change or delete it. */
  async function newTeam(): Promise<string> {
    const [workspace] = await api.runtime.db.insert(schema.workspaces).values({ name: `Team ${randomUUID().slice(0, 8)}` }).returning();
    await api.runtime.db.insert(schema.workspaceMembers).values(WORKSPACE_ROLES.map((role) => ({ workspaceId: workspace!.id, userId: people[role].userId!, role })));
    return workspace!.id;
  }

  const inTeam = (workspaceId: string) => ({ [WORKSPACE_HEADER]: workspaceId });

  /** A completed receipt `who` uploaded into the workspace: its upload's and its receipt's ids. */
  async function receiptIn(who: Caller, workspaceId: string, merchantName: string): Promise<{ upload: string; receipt: string }> {
    const form = new FormData();
    const file = pngFile();
    form.append('file', new Blob([new Uint8Array(file.buffer)]), `${merchantName}.png`);
    const upload = await who.send('POST', '/api/ocr', form, inTeam(workspaceId));
    if (upload.status !== 202) throw new Error(`upload: ${upload.status} ${JSON.stringify(upload.body)}`);
    const rows = new UploadRepository(api.runtime.db);
    await rows.claim(upload.body.id);
    const receipt = (await rows.complete(upload.body.id, extracted({ merchantName, total: 12.5 })))!;
    return { upload: upload.body.id, receipt: receipt.id };
  }

  beforeAll(async () => {
    for (const who of [...WORKSPACE_ROLES, 'outsider'] as const) people[who] = await api.signedIn('user');
    const document = (await people.outsider.get('/api/openapi.json')).body;
    for (const [path, item] of Object.entries<Record<string, any>>(document.paths)) {
      for (const [method, op] of Object.entries<Record<string, any>>(item)) {
        const security: Array<Record<string, unknown>> = op.security ?? [];
        const caller = security.length === 0 ? 'signature' : security.some((s) => Object.keys(s).length === 0) ? 'anyone' : 'account';
        operations.push({ method: method.toUpperCase(), path, caller, action: op['x-workspace-action'] ?? null, name: `${method.toUpperCase()} ${path}` });
      }
    }
    operations = operations.filter((op) => op.caller !== 'signature');
    const id = await newTeam();
    const owner = await receiptIn(people.owner, id, 'Owner Secret Supplies');
    const member = await receiptIn(people.member, id, 'Member Lunch Place');
    team = { id, ownerReceipt: owner.receipt, ownerUpload: owner.upload, memberReceipt: member.receipt, memberUpload: member.upload };
  }, 180_000);

  it('walks the routes that act on a workspace’s data', () => {
    const acting = operations.filter((op) => op.action);
    // The receipts, uploads, exports and settings at least; a route that loses its action drops out of this walk.
    expect(acting.length).toBeGreaterThan(25);
    for (const path of ['/api/ocr', '/api/receipts', '/api/receipts/{id}', '/api/export', '/api/workspaces/current']) expect(acting.map((op) => op.path)).toContain(path);
  });

  it('answers every role in a team workspace as the policy says, before anything else of the request is looked at', async () => {
    const failures: string[] = [];
    for (const op of operations.filter((o) => o.action)) {
      // A workspace of its own per route: what an allowed call changes (leaving, handing over, deleting) touches nothing else.
      const workspaceId = await newTeam();
      // Members first and the owner last, so an owner's deletion or hand-over ends the walk of that route.
      for (const role of [...WORKSPACE_ROLES].reverse()) {
        const answer = await people[role].send(op.method, fill(op.path, randomUUID()), {}, inTeam(workspaceId));
        const refused = answer.status === 403 && answer.body?.message === WORKSPACE_MESSAGES.roleForbids;
        const allowed = workspaceAllows(role, op.action!, { personal: false });
        if (refused === allowed) failures.push(`${op.name} as ${role}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 120)} (policy: ${allowed ? 'allowed' : 'refused'})`);
      }
    }
    expect(failures).toEqual([]);
  }, 600_000);

  it('answers the owner of a personal workspace as the policy says', async () => {
    const failures: string[] = [];
    for (const op of operations.filter((o) => o.action)) {
      const answer = await people.outsider.send(op.method, fill(op.path, randomUUID()), {});
      const refused = answer.status === 403 && answer.body?.message === WORKSPACE_MESSAGES.roleForbids;
      if (refused === workspaceAllows('owner', op.action!, { personal: true })) failures.push(`${op.name}: ${answer.status}`);
    }
    expect(failures).toEqual([]);
  }, 600_000);

  it('gives a user of another workspace 404 for the team’s workspace on every route, and nothing of it', async () => {
    const failures: string[] = [];
    for (const op of operations.filter((o) => o.action)) {
      const answer = await people.outsider.send(op.method, fill(op.path, team.ownerReceipt), {}, inTeam(team.id));
      if (answer.status !== 404 || answer.body?.message !== WORKSPACE_MESSAGES.notFound) failures.push(`${op.name}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 120)}`);
    }
    expect(failures).toEqual([]);
  }, 600_000);

  it('finds none of the team’s receipts or uploads for another workspace’s user, a member who did not upload them, or an anonymous visitor', async () => {
    const failures: string[] = [];
    const owned = [
      [team.ownerReceipt, 'owner'],
      [team.ownerUpload, 'owner'],
    ] as const;
    const byId = operations.filter((op) => op.action && /\{id\}/.test(op.path) && (op.path.startsWith('/api/receipts') || op.path.startsWith('/api/uploads')));
    expect(byId.length).toBeGreaterThan(5);
    const visitors: Array<[string, Caller, Record<string, string>]> = [
      ['a user of another workspace, in their own', people.outsider, {}],
      ['the member, in the team', people.member, inTeam(team.id)],
      ['an anonymous visitor', api.anonymous(), {}],
    ];
    for (const op of byId) {
      for (const [id] of owned) {
        for (const [who, caller, headers] of visitors) {
          const answer: Answer = await caller.send(op.method, fill(op.path, id), VALID_BODIES[op.name] ?? {}, headers);
          const leaked = answer.status < 400 || JSON.stringify(answer.body ?? '').includes('Owner Secret Supplies');
          if (leaked || ![401, 403, 404].includes(answer.status)) failures.push(`${op.name} as ${who}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 100)}`);
        }
      }
    }
    expect(failures).toEqual([]);
    // The owner's receipt is still there, whole: none of those calls changed or deleted it.
    expect((await people.owner.send('GET', `/api/receipts/${team.ownerReceipt}`, undefined, inTeam(team.id))).body.merchantName).toBe('Owner Secret Supplies');
  }, 600_000);

  it('lists to each role only what it may see', async () => {
    const names = async (who: Caller, headers: Record<string, string>) => {
      const answer = await who.send('GET', '/api/receipts', undefined, headers);
      return (answer.body.items as Array<{ merchantName: string }>).map((item) => item.merchantName).sort();
    };
    for (const role of ['owner', 'admin', 'accountant'] as const) expect(await names(people[role], inTeam(team.id))).toEqual(['Member Lunch Place', 'Owner Secret Supplies']);
    expect(await names(people.member, inTeam(team.id))).toEqual(['Member Lunch Place']);
    expect(await names(people.outsider, {})).toEqual([]);
    // The team's receipts are not in anyone's own workspace either.
    expect(await names(people.owner, {})).toEqual([]);
  });

  it('asks an anonymous visitor to sign in on every route only accounts may call', async () => {
    const failures: string[] = [];
    const anonymous = api.anonymous();
    for (const op of operations.filter((o) => o.caller === 'account')) {
      const answer = await anonymous.send(op.method, fill(op.path, randomUUID()), {});
      if (answer.status !== 401) failures.push(`${op.name}: ${answer.status}`);
    }
    expect(failures).toEqual([]);
  }, 600_000);
});
