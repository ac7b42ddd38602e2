import { categorySchema, type MerchantRuleView } from '@receipts/common';
import type { MerchantRuleRepository, MerchantRuleRow } from '@receipts/infra';
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
  constructor(private readonly rules: MerchantRuleRepository) {}

  async list(userId: string): Promise<MerchantRuleView[]> {
    return (await this.rules.list(userId)).map(toView);
  }

  /** A new name for a merchant rule, or a new category (one of the spec's) for a category rule. */
  async update(userId: string, id: string, value: string): Promise<MerchantRuleView> {
    const kind = await this.rules.kindOf(userId, id);
    if (!kind) throw notFound('Rule not found');
    if (kind === 'category' && !categorySchema.safeParse(value).success) {
      throw new HttpError(400, 'VALIDATION_FAILED', `A category is one of ${categorySchema.options.join(', ')}`);
    }
    const row = await this.rules.update(userId, id, value);
    if (!row) throw notFound('Rule not found');
    return toView(row);
  }

  async remove(userId: string, id: string): Promise<void> {
    if (!(await this.rules.delete(userId, id))) throw notFound('Rule not found');
  }
}
