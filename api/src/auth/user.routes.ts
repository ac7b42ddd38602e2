import { deleteAccountSchema } from '@receipts/common';
import type { QuotaService } from '@receipts/infra';
import { Router } from 'express';
import type { BillingService } from '../billing/billing.service.js';
import { HttpError, parseBody } from '../http-error.js';
import { ownerOf } from '../session.js';
import type { UploadService } from '../upload.service.js';
import type { AccountService } from './account.service.js';
import type { ProfileService } from './profile.service.js';
import { requireUser } from './session-guard.js';

export function userRoutes(
  accounts: AccountService,
  profiles: ProfileService,
  quota: QuotaService,
  account: { billing: BillingService; uploads: UploadService },
): Router {
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

  /**
   * Deletes the signed-in account and all its data. The password is asked again, so a session
   * left open on a shared computer cannot delete it.
   */
  router.delete('/account', requireUser, async (req, res) => {
    const { password } = parseBody(deleteAccountSchema, req.body);
    const user = await accounts.findById(req.session.userId!);
    if (!user) throw new HttpError(401, 'UNAUTHENTICATED', 'Authentication required');
    if (!(await accounts.authenticate(user.email, password))) {
      throw new HttpError(403, 'INVALID_CREDENTIALS', 'The password is not correct, so your account was not deleted.');
    }
    await account.billing.closeCustomer(user);
    const owner = { userId: user.id, anonId: null };
    await account.uploads.stopAll(owner);
    const uploadIds = await accounts.deleteAccount(user.id);
    await account.uploads.deleteOriginals(uploadIds);
    await new Promise<void>((resolve) => req.session.destroy(() => resolve()));
    res.clearCookie('rsid');
    res.json({ message: 'Your account and all its data have been deleted.' });
  });

  return router;
}
