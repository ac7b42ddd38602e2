import { MEMBERSHIP_MESSAGES, WORKSPACE_MESSAGES, type AssignableRole, type MemberList, type MemberView } from '@receipts/common';
import type { MemberRefusal, MemberRepository, MemberRow, WorkspaceRepository } from '@receipts/infra';
import { HttpError, notFound } from '../http-error.js';

const view = (member: MemberRow): MemberView => ({
  userId: member.userId,
  email: member.email,
  username: member.username,
  role: member.role,
  joinedAt: member.joinedAt.toISOString(),
});

/** What a refused change of members answers: the policy's no (403), no such member (404), or nothing to hand over (409). */
function refusal(refused: MemberRefusal): HttpError {
  switch (refused) {
    case 'not-found':
      return notFound(MEMBERSHIP_MESSAGES.memberNotFound);
    case 'forbidden':
      return new HttpError(403, 'FORBIDDEN', WORKSPACE_MESSAGES.roleForbids);
    case 'owner':
      return new HttpError(403, 'FORBIDDEN', MEMBERSHIP_MESSAGES.ownerUntouchable);
    case 'already-owner':
      return new HttpError(409, 'CONFLICT', MEMBERSHIP_MESSAGES.alreadyOwner);
  }
}

const made = (outcome: MemberRow | { refused: MemberRefusal }): MemberRow => {
  if ('refused' in outcome) throw refusal(outcome.refused);
  return outcome;
};

/**
 * A workspace's members: listed, their roles changed, removed, leaving, the workspace handed
 * over. The route has checked the caller's role for the action; the repository checks it again,
 * with the member acted on, inside the change's transaction.
 */
export class MemberService {
  constructor(
    private readonly members: MemberRepository,
    private readonly workspaces: Pick<WorkspaceRepository, 'members'>,
  ) {}

  async list(workspaceId: string): Promise<MemberList> {
    return { members: (await this.workspaces.members(workspaceId)).map(view) };
  }

  async changeRole(workspaceId: string, actorId: string, userId: string, role: AssignableRole): Promise<MemberView> {
    return view(made(await this.members.changeRole(workspaceId, actorId, userId, role)));
  }

  async remove(workspaceId: string, actorId: string, userId: string): Promise<void> {
    made(await this.members.remove(workspaceId, actorId, userId));
  }

  async leave(workspaceId: string, userId: string): Promise<void> {
    made(await this.members.leave(workspaceId, userId));
  }

  /** Hands the workspace to another member; the members as they are after. */
  async transferOwnership(workspaceId: string, ownerId: string, userId: string): Promise<MemberList> {
    const outcome = await this.members.transferOwnership(workspaceId, ownerId, userId);
    if ('refused' in outcome && outcome.refused === 'not-found') throw new HttpError(404, 'NOT_FOUND', MEMBERSHIP_MESSAGES.notAMemberToTransfer);
    made(outcome);
    return this.list(workspaceId);
  }
}
