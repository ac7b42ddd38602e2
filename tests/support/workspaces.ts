import type { WorkspaceRole } from '@receipts/common';
import { schema, type Database } from '@receipts/infra';

/**
 * A team workspace made straight in the database (test set-up, where invitations are not the
 * point): `owner` owns it, each of `members` is in it with their role. Its id.
 */
export async function teamWorkspace(
  db: Database,
  team: { owner: string; members?: ReadonlyArray<{ userId: string; role: Exclude<WorkspaceRole, 'owner'> }>; name?: string },
): Promise<string> {
  const [workspace] = await db.insert(schema.workspaces).values({ name: team.name ?? 'Team' }).returning({ id: schema.workspaces.id });
  await db.insert(schema.workspaceMembers).values([
    { workspaceId: workspace!.id, userId: team.owner, role: 'owner' },
    ...(team.members ?? []).map((m) => ({ workspaceId: workspace!.id, ...m })),
  ]);
  return workspace!.id;
}
