import { intakeAddressViewSchema } from '@receipts/common';
import { Router } from 'express';
import { workspaceOf } from '../owner.middleware.js';
import { route } from '../route-spec.js';
import type { IntakeAddressService } from './intake-address.service.js';

/** /api/intake (signed-in only): the member's private intake address into the workspace they act in; POST makes a new one, DELETE turns it off. */
export function intakeRoutes(addresses: IntakeAddressService): Router {
  const router = Router();
  // Signed-in callers only, by requireUser before the router.
  const intake = { tag: 'intake', scope: null, caller: 'account', workspace: 'receipts:own' } as const;

  router.get(
    '/',
    route({
      ...intake,
      summary: 'The account’s intake address',
      description: 'Receipts mailed to it are uploaded to the account. `available` is false when this server receives no mail.',
      answers: { 200: intakeAddressViewSchema },
    }),
    async (req, res) => {
      res.json(await addresses.view(req.owner.userId!, workspaceOf(req).id));
    },
  );

  router.post(
    '/',
    route({
      ...intake,
      summary: 'Make a new intake address',
      description: 'Mail to the one before is refused from now on.',
      answers: { 200: intakeAddressViewSchema },
      errors: { 404: ['NOT_FOUND'] },
    }),
    async (req, res) => {
      res.json(await addresses.renew(req.owner.userId!, workspaceOf(req).id));
    },
  );

  router.delete(
    '/',
    route({ ...intake, summary: 'Turn the intake address off', description: 'Mail to it is refused.', answers: { 200: intakeAddressViewSchema }, errors: { 404: ['NOT_FOUND'] } }),
    async (req, res) => {
      res.json(await addresses.revoke(req.owner.userId!, workspaceOf(req).id));
    },
  );

  return router;
}
