import { tagsSchema, type MerchantRuleView } from '@receipts/common';
import type { Acting, MerchantRuleRepository, MerchantRuleRow } from '@receipts/infra';
import type { CategoryService } from '../categories/category.service.js';
import { HttpError, notFound } from '../http-error.js';

const toView = (row: MerchantRuleRow): MerchantRuleView => ({
  id: row.id,
  kind: row.kind,
  match: row.match,
  value: row.value,
  updatedAt: row.updatedAt.toISOString(),
});

/** The rules a user's corrections taught, as the account page lists, edits and deletes them. */
export class MerchantRuleService {
  constructor(
    private readonly rules: MerchantRuleRepository,
    private readonly categories: Pick<CategoryService, 'resolve'>,
  ) {}

  async list(workspaceId: string): Promise<MerchantRuleView[]> {
    return (await this.rules.list(workspaceId)).map(toView);
  }

  /** A new name for a merchant rule, a new category (one of the user's) for a category rule, or new tags (comma-separated). */
  async update(acting: Acting, id: string, value: string): Promise<MerchantRuleView> {
    const { workspaceId } = acting;
    const kind = await this.rules.kindOf(workspaceId, id);
    if (!kind) throw notFound('Rule not found');
    let stored = value;
    if (kind === 'category') stored = await this.categories.resolve(workspaceId, value);
    if (kind === 'tags') {
      const tags = tagsSchema.safeParse(value.split(',').map((tag) => tag.trim()).filter(Boolean));
      if (!tags.success || tags.data.length === 0) throw new HttpError(400, 'VALIDATION_FAILED', tags.error?.issues[0]?.message ?? 'List the tags, separated by commas.');
      stored = tags.data.join(', ');
    }
    const row = await this.rules.update(acting, id, stored);
    if (!row) throw notFound('Rule not found');
    return toView(row);
  }

  async remove(acting: Acting, id: string): Promise<void> {
    if (!(await this.rules.delete(acting, id))) throw notFound('Rule not found');
  }
}
