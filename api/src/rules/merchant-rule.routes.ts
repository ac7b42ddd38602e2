import { merchantRuleListSchema, merchantRulePatchSchema, merchantRuleViewSchema } from '@receipts/common';
import { Router } from 'express';
import { actingOf, requireUser, workspaceOf } from '../owner.middleware.js';
import { route } from '../route-spec.js';
import { idParams } from '../validate.middleware.js';
import type { MerchantRuleService } from './merchant-rule.service.js';

/** /api/user/rules: the signed-in user's learned rules (merchant names and categories). */
export function merchantRuleRoutes(service: MerchantRuleService): Router {
  const router = Router();
  router.use('/rules', requireUser);

  router.get(
    '/rules',
    route({
      summary: 'The rules the user’s corrections taught',
      description: 'Each renames a merchant as read, files a merchant’s receipts under a category, or gives them tags.',
      tag: 'rules',
      scope: 'receipts:read',
      caller: 'account', workspace: 'settings:change',
      answers: { 200: merchantRuleListSchema },
    }),
    async (req, res) => {
      res.json({ rules: await service.list(workspaceOf(req).id) });
    },
  );

  router.patch(
    '/rules/:id',
    route({
      summary: 'Change what a rule gives',
      description: 'A new name for a merchant rule, one of the user’s categories for a category rule, or tags separated by commas for a tags rule.',
      tag: 'rules',
      scope: 'receipts:write',
      caller: 'account', workspace: 'settings:change',
      body: merchantRulePatchSchema,
      params: idParams,
      answers: { 200: merchantRuleViewSchema },
      errors: { 404: ['NOT_FOUND'] },
    }),
    async (req, res) => {
      res.json(await service.update(actingOf(req), req.params.id, req.body.value));
    },
  );

  router.delete(
    '/rules/:id',
    route({ summary: 'Forget a rule', tag: 'rules', scope: 'receipts:write', caller: 'account', workspace: 'settings:change', params: idParams, answers: { 204: null }, errors: { 404: ['NOT_FOUND'] } }),
    async (req, res) => {
      await service.remove(actingOf(req), req.params.id);
      res.status(204).end();
    },
  );

  return router;
}
