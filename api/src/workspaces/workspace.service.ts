import { OWNED_WORKSPACES_MAX, WORKSPACE_MESSAGES, type WorkspaceList, type WorkspaceView } from '@receipts/common';
import type { Membership, UserRow, WorkspaceRepository } from '@receipts/infra';
import { HttpError, notFound } from '../http-error.js';

const view = (membership: Membership, members: number): WorkspaceView => ({
  id: membership.workspace.id,
  name: membership.workspace.name,
  personal: membership.workspace.personalOf !== null,
  role: membership.role,
  members,
});

/** The workspaces of an account: listed for the switcher, made, switched to and renamed. */
export class WorkspaceService {
  constructor(
    private readonly workspaces: WorkspaceRepository,
    private readonly accounts: { isEmailVerified(user: UserRow): boolean },
  ) {}

  async list(userId: string, currentId: string): Promise<WorkspaceList> {
    const rows = await this.workspaces.listFor(userId);
    return { workspaces: rows.map((row) => view(row, row.members)), currentId };
  }

  /** A new team workspace, its maker the owner: a confirmed address first, and a bound on how many. */
  async create(user: UserRow, name: string): Promise<WorkspaceView> {
    if (!this.accounts.isEmailVerified(user)) throw new HttpError(403, 'EMAIL_NOT_VERIFIED', WORKSPACE_MESSAGES.confirmBeforeCreating);
    if ((await this.workspaces.ownedCount(user.id)) >= OWNED_WORKSPACES_MAX) throw new HttpError(409, 'CONFLICT', WORKSPACE_MESSAGES.tooMany);
    const workspace = await this.workspaces.create(user.id, name);
    return view({ workspace, role: 'owner' }, 1);
  }

  /** The membership to switch to; 404 when the user is not in that workspace. */
  async membership(userId: string, workspaceId: string): Promise<Membership> {
    const membership = await this.workspaces.membership(userId, workspaceId);
    if (!membership) throw notFound(WORKSPACE_MESSAGES.notFound);
    return membership;
  }

  async rename(userId: string, workspaceId: string, name: string): Promise<WorkspaceView> {
    await this.workspaces.rename({ workspaceId, actorId: userId }, name);
    const rows = await this.workspaces.listFor(userId);
    const row = rows.find((r) => r.workspace.id === workspaceId);
    if (!row) throw notFound(WORKSPACE_MESSAGES.notFound);
    return view(row, row.members);
  }
}
