import { once } from 'node:events';
import { PassThrough, type Writable } from 'node:stream';
import { DEFAULT_DATEV_SETTINGS, exportRequestSchema, personalWorkspace } from '@receipts/common';
import { StoredFileMissingError, type FileStore, type Logger, type UploadReadRepository, type UserRow, type WorkspaceRepository } from '@receipts/infra';
import archiver from 'archiver';
import type { AuditService } from '../audit/audit.service.js';
import type { ProfileService } from '../auth/profile.service.js';
import type { CategoryService } from '../categories/category.service.js';
import type { ExportService } from '../export/export.service.js';
import { HttpError } from '../http-error.js';
import type { MerchantRuleService } from '../rules/merchant-rule.service.js';
import type { Owner } from '../session.js';

/** Originals listed per query. */
const PAGE_SIZE = 200;

/** A file name safe inside a zip on every system: no folders, no control or reserved characters. */
function safeName(name: string): string {
  const cleaned = name.replace(/[\u0000-\u001f\u007f<>:"/\\|?*]+/g, '_').replace(/^\.+/, '').trim();
  return cleaned.slice(-120) || 'receipt';
}

/**
 * "Download all my data": one zip of the receipts workbook (every receipt, the Validation Issues
 * and Summary sheets as an export makes them), every original still stored, the account's own
 * details and everything the person did in any workspace (audit.json). Streamed: one original in memory at a time, waiting for the client.
 */
export class AccountDataService {
  constructor(
    private readonly exports: ExportService,
    private readonly uploadReads: UploadReadRepository,
    private readonly files: FileStore,
    /** What account.json holds besides the address (the plan, the categories, the learned rules, the DATEV settings), and audit.json (the person's own acts). */
    private readonly account: {
      profiles: Pick<ProfileService, 'subscription'>;
      categories: Pick<CategoryService, 'list'>;
      rules: Pick<MerchantRuleService, 'list'>;
      workspaces: Pick<WorkspaceRepository, 'datevSettings'>;
      audit: Pick<AuditService, 'ownActs'>;
    },
    private readonly log: Logger,
  ) {}

  /**
   * account.json: what the account pages show of the account, as they show it. Nothing secret:
   * no password hash, no Stripe customer or subscription ids, no tokens.
   */
  private async details(user: UserRow): Promise<string> {
    const { profiles, categories, rules, workspaces } = this.account;
    const [subscription, categoryList, learnedRules, datev] = await Promise.all([
      profiles.subscription(user.id),
      categories.list(user.id),
      rules.list(user.id),
      workspaces.datevSettings(personalWorkspace(user.id).id),
    ]);
    return JSON.stringify(
      {
        email: user.email,
        username: user.username,
        createdAt: user.createdAt.toISOString(),
        subscription,
        categories: categoryList,
        learnedRules,
        datevSettings: { settings: datev ?? DEFAULT_DATEV_SETTINGS, saved: datev !== null },
        exportedAt: new Date().toISOString(),
      },
      null,
      2,
    );
  }

  filename(now = new Date()): string {
    return `receipts-data-${now.toISOString().slice(0, 10)}.zip`;
  }

  async write(user: UserRow, out: Writable): Promise<void> {
    const owner: Owner = { userId: user.id, anonId: null, clientIp: null, workspace: personalWorkspace(user.id) };
    const archive = archiver('zip', { zlib: { level: 6 } });
    // The archive failing or the client going away ends the copy; nothing is left waiting on either.
    const stopped = new Promise<never>((_, reject) => {
      archive.once('error', reject);
      out.once('close', () => reject(new Error('client went away')));
    });
    let finished = false;
    stopped.catch(() => {
      if (!finished) archive.abort();
    });
    archive.pipe(out);
    const added = (name: string) => Promise.race([once(archive, 'entry').then(() => undefined), stopped]).then(() => this.log.debug({ name }, 'data archive entry'));

    archive.append(await this.details(user), { name: 'account.json' });
    await added('account.json');
    // The person's own acts in every workspace they acted in; others' acts are their workspaces' to keep.
    archive.append(JSON.stringify({ events: await this.account.audit.ownActs(user.id) }, null, 2), { name: 'audit.json' });
    await added('audit.json');

    const workbook = await this.exports.prepare(owner, exportRequestSchema.parse({ format: 'xlsx', name: 'receipts' })).catch((err: unknown) => {
      // No receipts yet: the archive simply has no workbook.
      if (err instanceof HttpError && err.code === 'NOTHING_TO_EXPORT') return null;
      throw err;
    });
    if (workbook) {
      const entry = new PassThrough();
      archive.append(entry, { name: workbook.filename });
      await Promise.race([workbook.write(entry), stopped]);
      await added(workbook.filename);
    }

    let after: { at: string; id: string } | null = null;
    for (;;) {
      const page = await this.uploadReads.storedOriginals(owner, after, PAGE_SIZE);
      for (const original of page) {
        const bytes = await this.files.read(original.id).catch((err: unknown) => {
          // Deleted by retention since the list was read: nothing to copy.
          if (err instanceof StoredFileMissingError) return null;
          throw err;
        });
        if (!bytes) continue;
        const name = `originals/${original.createdAt.toISOString().slice(0, 10)}_${original.id.slice(0, 8)}_${safeName(original.filename)}`;
        // Photos and PDFs are compressed already.
        archive.append(bytes, { name, date: original.createdAt, store: true });
        await added(name);
      }
      if (page.length < PAGE_SIZE) break;
      const last = page.at(-1)!;
      after = { at: last.at, id: last.id };
    }
    await Promise.race([archive.finalize(), stopped]);
    finished = true;
  }
}
