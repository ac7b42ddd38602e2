import { merchantRulePatchSchema } from '@receipts/common';
import { Router } from 'express';
import { parseBody, parseId } from '../http-error.js';
import { requireUser } from '../owner.middleware.js';
import type { MerchantRuleService } from './merchant-rule.service.js';

/** /api/user/rules: the signed-in user's learned rules (merchant names and categories). */
export function merchantRuleRoutes(service: MerchantRuleService): Router {
  const router = Router();
  router.use('/rules', requireUser);

  router.get('/rules', async (req, res) => {
    res.json({ rules: await service.list(req.session.userId!) });
  });

  router.patch('/rules/:id', async (req, res) => {
    const { value } = parseBody(merchantRulePatchSchema, req.body);
    res.json(await service.update(req.session.userId!, parseId(req.params.id), value));
  });

  router.delete('/rules/:id', async (req, res) => {
    await service.remove(req.session.userId!, parseId(req.params.id));
    res.status(204).end();
  });

  return router;
}
