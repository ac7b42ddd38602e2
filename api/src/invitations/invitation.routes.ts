import { invitationListSchema, invitationParamsSchema, invitationPreviewSchema, invitationTokenParamsSchema, invitationViewSchema, inviteMemberSchema, workspaceListSchema } from '@receipts/common';
import type { UserRepository } from '@receipts/infra';
import { Router, type Request } from 'express';
import { currentUser, requireUser, workspaceOf } from '../owner.middleware.js';
import { route } from '../route-spec.js';
import type { WorkspaceService } from '../workspaces/workspace.service.js';
import type { InvitationService } from './invitation.service.js';

/**
 * /api/workspaces/current/invitations: the invitations out of the workspace requests act in, for
 * those who manage its members (and listed for those who may see them). Sending one mails a link.
 */
export function invitationRoutes(deps: { invitations: InvitationService; workspaces: WorkspaceService; users: UserRepository; links: (req: Request) => string }): Router {
  const { invitations, workspaces, links } = deps;
  const router = Router();
  const spec = { tag: 'members', scope: null, caller: 'account' } as const;
  /** The inviter's row and the workspace's name, for the mail. */
  const inviting = async (req: Request) => {
    const { workspace } = await workspaces.membership(req.owner.userId!, workspaceOf(req).id);
    return { id: workspace.id, name: workspace.name };
  };

  const list = route({ ...spec, workspace: 'members:read', summary: 'The workspace’s open invitations', receive: [requireUser], answers: { 200: invitationListSchema } });
  router.get('/', list, async (req, res) => {
    res.json(await invitations.list(workspaceOf(req).id));
  });

  const invite = route({
    ...spec,
    workspace: 'members:manage',
    summary: 'Invite someone by e-mail',
    description: 'Mails a link that works once, for seven days, for that address once confirmed. An open invitation to the same address is replaced.',
    receive: [currentUser(deps.users)],
    body: inviteMemberSchema,
    answers: { 201: invitationViewSchema },
    errors: { 409: ['CONFLICT'], 429: ['RATE_LIMITED'] },
  });
  router.post('/', invite, async (req, res) => {
    res.status(201).json(await invitations.invite(req.user!, await inviting(req), req.body, links(req)));
  });

  const revoke = route({ ...spec, workspace: 'members:manage', summary: 'Revoke an open invitation', receive: [requireUser], params: invitationParamsSchema, answers: { 204: null } });
  router.delete('/:id', revoke, async (req, res) => {
    await invitations.revoke(req.owner.userId!, workspaceOf(req).id, req.params.id);
    res.status(204).end();
  });

  const resend = route({
    ...spec,
    workspace: 'members:manage',
    summary: 'Send an open invitation again',
    description: 'With a new link for seven days more; the earlier link stops working.',
    receive: [currentUser(deps.users)],
    params: invitationParamsSchema,
    answers: { 200: invitationViewSchema },
    errors: { 429: ['RATE_LIMITED'] },
  });
  router.post('/:id/resend', resend, async (req, res) => {
    res.json(await invitations.resend(req.user!, await inviting(req), req.params.id, links(req)));
  });

  return router;
}

/**
 * /api/invitations/:token: a mailed link, previewed by anyone who has it and accepted by the
 * signed-in account with the invited address, confirmed. Every token that is not a usable one
 * answers the same 404.
 */
export function invitationLinkRoutes(deps: { invitations: InvitationService; workspaces: WorkspaceService }): Router {
  const { invitations, workspaces } = deps;
  const router = Router();
  const spec = { tag: 'members', scope: null, params: invitationTokenParamsSchema } as const;

  const preview = route({ ...spec, caller: 'anyone', summary: 'What an invitation link invites to', answers: { 200: invitationPreviewSchema }, errors: { 429: ['RATE_LIMITED'] } });
  router.get('/:token', preview, async (req, res) => {
    res.json(await invitations.preview(req.params.token));
  });

  const accept = route({
    ...spec,
    caller: 'account',
    summary: 'Accept an invitation',
    description: 'Signed in with the invited address, confirmed. The link works once; this session acts in the workspace joined from now on.',
    receive: [requireUser],
    answers: { 200: workspaceListSchema },
    errors: { 403: ['EMAIL_NOT_VERIFIED'], 409: ['CONFLICT'], 429: ['RATE_LIMITED'] },
  });
  router.post('/:token/accept', accept, async (req, res) => {
    const userId = req.owner.userId!;
    const joined = await invitations.accept(userId, req.params.token);
    req.session.workspaceId = joined;
    res.json(await workspaces.list(userId, joined));
  });

  return router;
}
