import { DEFAULT_DATEV_SETTINGS, datevSettingsSchema, deleteAccountSchema } from '@receipts/common';
import type { QuotaService, UserRepository } from '@receipts/infra';
import { Router } from 'express';
import { parseBody } from '../http-error.js';
import { currentUser, requireUser } from '../owner.middleware.js';
import type { AccountDeletionService } from './account-deletion.service.js';
import type { ProfileService } from '../auth/profile.service.js';

/** /api/user: the caller's profile, quota, subscription, DATEV export settings, and deleting the account. */
export function accountRoutes(deps: { users: UserRepository; profiles: ProfileService; quota: QuotaService; deletion: AccountDeletionService }): Router {
  const { profiles, quota, deletion } = deps;
  const signedIn = currentUser(deps.users);
  const router = Router();

  router.get('/profile', signedIn, async (req, res) => {
    res.json(await profiles.profile(req.user!));
  });

  router.get('/quota', async (req, res) => {
    res.json(await quota.view(req.owner));
  });

  router.get('/subscription', requireUser, async (req, res) => {
    res.json(await profiles.subscription(req.session.userId!));
  });

  /** The DATEV export's numbers and accounts: the user's, or the SKR03 defaults until they save theirs. */
  router.get('/datev-settings', requireUser, async (req, res) => {
    const saved = await deps.users.datevSettings(req.session.userId!);
    res.json({ settings: saved ?? DEFAULT_DATEV_SETTINGS, saved: saved !== null });
  });

  router.put('/datev-settings', requireUser, async (req, res) => {
    const settings = parseBody(datevSettingsSchema, req.body);
    await deps.users.saveDatevSettings(req.session.userId!, settings);
    res.json({ settings, saved: true });
  });

  /** Deletes the signed-in account and all its data. */
  router.delete('/account', signedIn, async (req, res) => {
    const { password } = parseBody(deleteAccountSchema, req.body);
    await deletion.delete(req.user!, password);
    await new Promise<void>((resolve) => req.session.destroy(() => resolve()));
    res.clearCookie('rsid');
    res.json({ message: 'Your account and all its data have been deleted.' });
  });

  return router;
}
