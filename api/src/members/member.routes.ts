import { changeMemberRoleSchema, memberListSchema, memberParamsSchema, memberViewSchema, transferOwnershipSchema, workspaceListSchema } from '@receipts/common';
import { Router } from 'express';
import { requireUser, workspaceOf } from '../owner.middleware.js';
import { route } from '../route-spec.js';
import type { WorkspaceService } from '../workspaces/workspace.service.js';
import type { MemberService } from './member.service.js';

/**
 * /api/workspaces/current/{members,leave,ownership}: who is in the workspace requests act in, their
 * roles, removing them, leaving it and handing it over. Each names the workspace action the
 * caller's role must allow; whom it is done to is checked by the service (an admin never touches
 * the owner).
 */
export function memberRoutes(members: MemberService, workspaces: WorkspaceService): Router {
  const router = Router();
  const spec = { tag: 'members', scope: null, caller: 'account' } as const;
  const receive = [requireUser];

  const list = route({ ...spec, receive, workspace: 'members:read', summary: 'The workspace’s members and their roles', answers: { 200: memberListSchema } });
  router.get('/members', list, async (req, res) => {
    res.json(await members.list(workspaceOf(req).id));
  });

  const changeRole = route({
    ...spec,
    receive,
    workspace: 'members:manage',
    summary: 'Give a member another role',
    description: 'Not the owner’s role, and never the owner role itself: ownership moves only by a transfer.',
    params: memberParamsSchema,
    body: changeMemberRoleSchema,
    answers: { 200: memberViewSchema },
  });
  router.patch('/members/:userId', changeRole, async (req, res) => {
    res.json(await members.changeRole(workspaceOf(req).id, req.owner.userId!, req.params.userId, req.body.role));
  });

  const remove = route({
    ...spec,
    receive,
    workspace: 'members:manage',
    summary: 'Remove a member',
    description: 'Their receipts stay with the workspace; their intake address into it stops working.',
    params: memberParamsSchema,
    answers: { 204: null },
  });
  router.delete('/members/:userId', remove, async (req, res) => {
    await members.remove(workspaceOf(req).id, req.owner.userId!, req.params.userId);
    res.status(204).end();
  });

  const leave = route({
    ...spec,
    receive,
    workspace: 'workspace:leave',
    summary: 'Leave the workspace',
    description: 'Not the owner. Your receipts stay with the workspace; this session acts in your own workspace from now on.',
    answers: { 200: workspaceListSchema },
  });
  router.post('/leave', leave, async (req, res) => {
    const userId = req.owner.userId!;
    const { id } = workspaceOf(req);
    await members.leave(id, userId);
    if (req.session.workspaceId === id) delete req.session.workspaceId;
    res.json(await workspaces.list(userId, req.session.workspaceId ?? userId));
  });

  const transfer = route({
    ...spec,
    receive,
    workspace: 'ownership:transfer',
    summary: 'Hand the workspace to another member',
    description: 'They become its owner, and you an admin.',
    body: transferOwnershipSchema,
    answers: { 200: memberListSchema },
    errors: { 409: ['CONFLICT'] },
  });
  router.post('/ownership', transfer, async (req, res) => {
    res.json(await members.transferOwnership(workspaceOf(req).id, req.owner.userId!, req.body.userId));
  });

  return router;
}
