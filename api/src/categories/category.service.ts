import {
  CATEGORIES,
  categoryNameTaken,
  CUSTOM_CATEGORIES_MAX,
  DEFAULT_DATEV_SETTINGS,
  findCategory,
  isBuiltInCategory,
  type CategoryView,
} from '@receipts/common';
import type { Acting, CategoryRepository, UserCategoryRow, WorkspaceRepository } from '@receipts/infra';
import { HttpError, notFound } from '../http-error.js';

/**
 * A user's categories: the spec's six (built in, the extraction's) and their own, each with how
 * many receipts it holds; their own with the DATEV expense account it is booked to.
 */
export class CategoryService {
  constructor(
    private readonly categories: CategoryRepository,
    private readonly workspaces: Pick<WorkspaceRepository, 'datevSettings'>,
  ) {}

  async list(workspaceId: string): Promise<CategoryView[]> {
    const [own, counts] = await Promise.all([this.categories.list(workspaceId), this.categories.counts(workspaceId)]);
    return [
      ...CATEGORIES.map((name) => ({ name, builtIn: true, datevAccount: null, receipts: counts.get(name) ?? 0 })),
      ...own.map((row) => ({ name: row.name, builtIn: false, datevAccount: row.datevAccount, receipts: counts.get(row.name) ?? 0 })),
    ];
  }

  /** `name` as the owner's category is spelled (the six, and a signed-in user's own), or a 400 naming the choices. */
  async resolve(workspaceId: string | null, name: string): Promise<string> {
    const own = workspaceId ? (await this.categories.list(workspaceId)).map((r) => r.name) : [];
    const found = findCategory(name, own);
    if (!found) throw new HttpError(400, 'VALIDATION_FAILED', `A category is one of ${[...CATEGORIES, ...own].join(', ')}.`);
    return found;
  }

  /** Adds one of the workspace's own; `acting` is who the trail records. */
  async add(acting: Acting, name: string, datevAccount: string | null): Promise<CategoryView> {
    const { workspaceId } = acting;
    const own = await this.categories.list(workspaceId);
    const taken = categoryNameTaken(name, own.map((r) => r.name));
    if (taken) throw new HttpError(409, 'CONFLICT', taken);
    if (own.length >= CUSTOM_CATEGORIES_MAX) throw new HttpError(400, 'VALIDATION_FAILED', `You can have at most ${CUSTOM_CATEGORIES_MAX} categories of your own.`);
    if (datevAccount) await this.checkAccount(workspaceId, datevAccount);
    const row = await this.categories.add(acting, name, datevAccount);
    // Another request made the same name in between.
    if (!row) throw new HttpError(409, 'CONFLICT', `There is a category named ${name} already.`);
    return this.view(row, 0);
  }

  async update(acting: Acting, name: string, change: { name?: string; datevAccount?: string | null }): Promise<CategoryView> {
    const { workspaceId } = acting;
    const own = await this.ownNamed(workspaceId, name);
    if (change.name !== undefined && change.name.toLowerCase() !== own.name.toLowerCase()) {
      const taken = categoryNameTaken(change.name, (await this.categories.list(workspaceId)).map((r) => r.name));
      if (taken) throw new HttpError(409, 'CONFLICT', taken);
    }
    if (change.datevAccount) await this.checkAccount(workspaceId, change.datevAccount);
    const row = await this.categories.update(acting, own.name, change);
    if (!row) throw notFound('Category not found');
    return this.view(row, (await this.categories.counts(workspaceId)).get(row.name) ?? 0);
  }

  /** Deletes one of the user's own; its receipts go to `other`. */
  async remove(acting: Acting, name: string): Promise<void> {
    const own = await this.ownNamed(acting.workspaceId, name);
    if (!(await this.categories.delete(acting, own.name))) throw notFound('Category not found');
  }

  /** The user's own category of that name (whatever its case); a built-in one cannot be changed. */
  private async ownNamed(workspaceId: string, name: string): Promise<UserCategoryRow> {
    const own = await this.categories.list(workspaceId);
    const row = own.find((r) => r.name.toLowerCase() === name.trim().toLowerCase());
    if (row) return row;
    if (isBuiltInCategory(name.trim())) throw new HttpError(400, 'VALIDATION_FAILED', 'The built-in categories cannot be renamed or deleted.');
    throw notFound('Category not found');
  }

  /** An account has as many digits as the user's DATEV settings' Sachkontenlänge, as their other accounts. */
  private async checkAccount(workspaceId: string, account: string): Promise<void> {
    const { accountLength } = (await this.workspaces.datevSettings(workspaceId)) ?? DEFAULT_DATEV_SETTINGS;
    if (account.length !== accountLength) {
      throw new HttpError(400, 'VALIDATION_FAILED', `Every account must have ${accountLength} digits (the Sachkontenlänge)`);
    }
  }

  private view(row: UserCategoryRow, receipts: number): CategoryView {
    return { name: row.name, builtIn: false, datevAccount: row.datevAccount, receipts };
  }
}
