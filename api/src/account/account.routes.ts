import {
  ACCOUNT_MESSAGES,
  changeEmailSchema,
  changePasswordSchema,
  DEFAULT_DATEV_SETTINGS,
  datevSettingsSchema,
  datevSettingsViewSchema,
  deleteAccountSchema,
  messageAnswerSchema,
  profileAnswerSchema,
  quotaViewSchema,
  subscriptionViewSchema,
  userProfileSchema,
} from '@receipts/common';
import type { Logger, QuotaService, UserRepository, WorkspaceRepository } from '@receipts/infra';
import { Router, type Request } from 'express';
import { actingOf, currentUser, requireUser, workspaceOf } from '../owner.middleware.js';
import { route } from '../route-spec.js';
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
  workspaces: Pick<WorkspaceRepository, 'datevSettings' | 'saveDatevSettings'>;
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

  router.get(
    '/profile',
    route({ summary: 'The signed-in account’s profile', tag: 'account', scope: null, caller: 'account', answers: { 200: userProfileSchema } }),
    signedIn,
    async (req, res) => {
      res.json(await profiles.profile(req.user!, workspaceOf(req).id));
    },
  );

  router.get(
    '/quota',
    route({
      summary: 'The caller’s receipt quota',
      description:
        'In a workspace with a paid plan, the workspace’s monthly quota that all its members share; else the signed-in account’s own daily one, or the anonymous visitor’s: used, limit, and when it resets.',
      tag: 'account',
      // What a script may still upload today is a read of the account's own receipts.
      scope: 'receipts:read',
      caller: 'anyone',
      answers: { 200: quotaViewSchema },
    }),
    async (req, res) => {
      res.json(await quota.view(req.owner));
    },
  );

  router.get(
    '/subscription',
    route({
      summary: 'The plan of the workspace the account acts in',
      description: 'Every member sees it: their uploads there share its quota and lane.',
      tag: 'account',
      scope: null,
      caller: 'account',
      answers: { 200: subscriptionViewSchema },
    }),
    requireUser,
    async (req, res) => {
      res.json(await profiles.subscription(workspaceOf(req).id));
    },
  );

  /** { currentPassword, password, confirmPassword }: other sessions are signed out, this one stays. */
  router.post(
    '/password',
    route({
      summary: 'Change the password',
      description: 'With the current one; every other session of the account is signed out.',
      tag: 'account',
      scope: null,
      caller: 'account',
      receive: [signedIn],
      body: changePasswordSchema,
      answers: { 200: messageAnswerSchema },
      errors: { 403: ['INVALID_CREDENTIALS'], 429: ['RATE_LIMITED'] },
    }),
    async (req, res) => {
      const { currentPassword, password } = req.body;
      await settings.changePassword(req.user!, currentPassword, password, req.sessionID, links(req));
      res.json({ message: ACCOUNT_MESSAGES.passwordChanged });
    },
  );

  /** { email, currentPassword }: answers with the profile under the new address. */
  router.post(
    '/email',
    route({
      summary: 'Move the account to another e-mail address',
      description: 'With the current password; the new address is unconfirmed until its link is followed, and every other session is signed out.',
      tag: 'account',
      scope: null,
      caller: 'account',
      receive: [signedIn],
      body: changeEmailSchema,
      answers: { 200: profileAnswerSchema },
      errors: { 403: ['INVALID_CREDENTIALS'], 429: ['RATE_LIMITED'] },
    }),
    async (req, res) => {
      const { email, currentPassword } = req.body;
      const moved = await settings.changeEmail(req.user!, email, currentPassword, req.sessionID, links(req));
      res.json({ message: ACCOUNT_MESSAGES.emailChanged, user: await profiles.profile(moved) });
    },
  );

  /** A zip of everything of the account: the receipts workbook, the stored originals, the account's details. */
  router.get(
    '/data',
    route({
      summary: 'A copy of all the account’s data',
      tag: 'account',
      scope: null,
      caller: 'account',
      answers: { 200: { media: ['application/zip'], description: 'A zip of the receipts workbook, the stored original files and the account’s details.' } },
    }),
    signedIn,
    async (req, res) => {
      res.status(200).set({ 'Content-Type': 'application/zip', 'Content-Disposition': attachment(data.filename()), 'Cache-Control': 'no-store' });
      try {
        await data.write(req.user!, res);
      } catch (err) {
        // The status line is gone: break the download so a cut-off zip is not taken for a whole one.
        log.warn({ err }, 'data download stopped');
        res.destroy(err as Error);
      }
    },
  );

  /** The DATEV export's numbers and accounts: the user's, or the SKR03 defaults until they save theirs. */
  router.get(
    '/datev-settings',
    route({
      summary: 'The DATEV export’s settings',
      description: 'The workspace’s, or the SKR03 defaults until they are saved.',
      tag: 'account',
      scope: null,
      caller: 'account',
      workspace: 'export',
      answers: { 200: datevSettingsViewSchema },
    }),
    requireUser,
    async (req, res) => {
      const saved = await deps.workspaces.datevSettings(workspaceOf(req).id);
      res.json({ settings: saved ?? DEFAULT_DATEV_SETTINGS, saved: saved !== null });
    },
  );

  router.put(
    '/datev-settings',
    route({
      summary: 'Save the DATEV export’s settings',
      tag: 'account',
      scope: null,
      caller: 'account',
      workspace: 'settings:change',
      receive: [requireUser],
      body: datevSettingsSchema,
      answers: { 200: datevSettingsViewSchema },
    }),
    async (req, res) => {
      const datev = req.body;
      await deps.workspaces.saveDatevSettings(actingOf(req), datev);
      res.json({ settings: datev, saved: true });
    },
  );

  /** Deletes the signed-in account and all its data. */
  router.delete(
    '/account',
    route({
      summary: 'Delete the account and all its data',
      description: 'With the password; ends any subscription at once, and signs out. An owner of a team workspace with other members hands it over or deletes it first (409).',
      tag: 'account',
      scope: null,
      caller: 'account',
      receive: [signedIn],
      body: deleteAccountSchema,
      answers: { 200: messageAnswerSchema },
      errors: { 403: ['INVALID_CREDENTIALS'], 409: ['CONFLICT'], 429: ['RATE_LIMITED'] },
    }),
    async (req, res) => {
      const { password } = req.body;
      await deletion.delete(req.user!, password);
      await new Promise<void>((resolve) => req.session.destroy(() => resolve()));
      res.clearCookie('rsid');
      res.json({ message: 'Your account and all its data have been deleted.' });
    },
  );

  return router;
}
