import type { AssignableRole } from '@receipts/common';
import type { Caller, RouteApi } from './route-api.js';
import { addMember } from './workspaces.js';

/** A team workspace of the route tests: its id, its owner, and a signed-in caller in each other role asked for. */
export interface Team {
  id: string;
  owner: Caller;
  member: Record<AssignableRole, Caller>;
}

/** The caller acts in `workspaceId` from now on (PUT /api/workspaces/current, as the switcher does). */
export async function switchTo(caller: Caller, workspaceId: string): Promise<void> {
  const switched = await caller.put('/api/workspaces/current', { workspaceId });
  if (switched.status !== 200) throw new Error(`switch: ${switched.status} ${JSON.stringify(switched.body)}`);
}

/**
 * A team workspace made over HTTP by a new owner, with a new account in each role added straight
 * in the database (the invitation flow has tests of its own); everyone has switched to it.
 */
export async function openTeam(api: RouteApi, name = 'Corner Bakery'): Promise<Team> {
  const owner = await api.signedIn();
  const made = await owner.post('/api/workspaces', { name });
  if (made.status !== 201) throw new Error(`workspace: ${made.status} ${JSON.stringify(made.body)}`);
  const id = made.body.id as string;
  await switchTo(owner, id);
  const member = {} as Record<AssignableRole, Caller>;
  for (const role of ['admin', 'accountant', 'member'] as const) {
    const caller = await api.signedIn();
    await addMember(api.runtime.db, id, caller.userId!, role);
    await switchTo(caller, id);
    member[role] = caller;
  }
  return { id, owner, member };
}
