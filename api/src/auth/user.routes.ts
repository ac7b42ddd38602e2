import type { QuotaService } from '@receipts/infra';
import { Router } from 'express';
import { HttpError } from '../http-error.js';
import { ownerOf } from '../session.js';
import type { AccountService } from './account.service.js';
import type { ProfileService } from './profile.service.js';
import { requireUser } from './session-guard.js';

export function userRoutes(accounts: AccountService, profiles: ProfileService, quota: QuotaService): Router {
  const router = Router();

  router.get('/profile', requireUser, async (req, res) => {
    const user = await accounts.findById(req.session.userId!);
    if (!user) throw new HttpError(401, 'UNAUTHENTICATED', 'Authentication required');
    res.json(await profiles.profile(user));
  });

  router.get('/quota', async (req, res) => {
    res.json(await quota.view(ownerOf(req.session, req.ip)));
  });

  router.get('/subscription', requireUser, async (req, res) => {
    res.json(await profiles.subscription(req.session.userId!));
  });

  return router;
}
