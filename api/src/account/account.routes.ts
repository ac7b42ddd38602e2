import { ACCOUNT_MESSAGES, changeEmailSchema, changePasswordSchema, DEFAULT_DATEV_SETTINGS, datevSettingsSchema, deleteAccountSchema } from '@receipts/common';
import type { Logger, QuotaService, UserRepository } from '@receipts/infra';
import { Router, type Request } from 'express';
import { currentUser, requireUser } from '../owner.middleware.js';
import { validate } from '../validate.middleware.js';
import type { AccountDataService } from './account-data.service.js';
import type { AccountDeletionService } from './account-deletion.service.js';
import type { AccountSettingsService } from './account-settings.service.js';
import type { ProfileService } from '../auth/profile.service.js';

/** The download's name (ASCII only: it is ours). */
function attachment(filename: string): string {
  return `attachment; filename="${filename}"`;
}

/**
 * /api/user: the caller's profile, quota, subscription, and the account page's changes (password,
 * e-mail, DATEV export settings, a copy of all their data, deleting the account).
 */
export function accountRoutes(deps: {
  users: UserRepository;
  profiles: ProfileService;
  quota: QuotaService;
  deletion: AccountDeletionService;
  settings: AccountSettingsService;
  data: AccountDataService;
  /** What links in the mails a request causes start with (linkBase). */
  links: (req: Request) => string;
  log: Logger;
}): Router {
  const { profiles, quota, deletion, settings, data, links, log } = deps;
  const signedIn = currentUser(deps.users);
  const router = Router();

  router.get('/profile', signedIn, async (req, res) => {
    res.json(await profiles.profile(req.user!));
  });

  router.get('/quota', async (req, res) => {
    res.json(await quota.view(req.owner));
  });

  router.get('/subscription', requireUser, async (req, res) => {
    res.json(await profiles.subscription(req.owner.userId!));
  });

  /** { currentPassword, password, confirmPassword }: other sessions are signed out, this one stays. */
  router.post('/password', signedIn, validate({ body: changePasswordSchema }), async (req, res) => {
    const { currentPassword, password } = req.body;
    await settings.changePassword(req.user!, currentPassword, password, req.sessionID, links(req));
    res.json({ message: ACCOUNT_MESSAGES.passwordChanged });
  });

  /** { email, currentPassword }: answers with the profile under the new address. */
  router.post('/email', signedIn, validate({ body: changeEmailSchema }), async (req, res) => {
    const { email, currentPassword } = req.body;
    const moved = await settings.changeEmail(req.user!, email, currentPassword, req.sessionID, links(req));
    res.json({ message: ACCOUNT_MESSAGES.emailChanged, user: await profiles.profile(moved) });
  });

  /** A zip of everything of the account: the receipts workbook, the stored originals, the account's details. */
  router.get('/data', signedIn, async (req, res) => {
    res.status(200).set({ 'Content-Type': 'application/zip', 'Content-Disposition': attachment(data.filename()), 'Cache-Control': 'no-store' });
    try {
      await data.write(req.user!, res);
    } catch (err) {
      // The status line is gone: break the download so a cut-off zip is not taken for a whole one.
      log.warn({ err }, 'data download stopped');
      res.destroy(err as Error);
    }
  });

  /** The DATEV export's numbers and accounts: the user's, or the SKR03 defaults until they save theirs. */
  router.get('/datev-settings', requireUser, async (req, res) => {
    const saved = await deps.users.datevSettings(req.owner.userId!);
    res.json({ settings: saved ?? DEFAULT_DATEV_SETTINGS, saved: saved !== null });
  });

  router.put('/datev-settings', requireUser, validate({ body: datevSettingsSchema }), async (req, res) => {
    const datev = req.body;
    await deps.users.saveDatevSettings(req.owner.userId!, datev);
    res.json({ settings: datev, saved: true });
  });

  /** Deletes the signed-in account and all its data. */
  router.delete('/account', signedIn, validate({ body: deleteAccountSchema }), async (req, res) => {
    const { password } = req.body;
    await deletion.delete(req.user!, password);
    await new Promise<void>((resolve) => req.session.destroy(() => resolve()));
    res.clearCookie('rsid');
    res.json({ message: 'Your account and all its data have been deleted.' });
  });

  return router;
}
