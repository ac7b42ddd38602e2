import { spendingSummary, type Spending, type SpendingQuery } from '@receipts/common';
import type { ReceiptRepository } from '@receipts/infra';
import type { Owner } from '../session.js';

/** Spending at a glance: the caller's receipts summed per currency by month, category and merchant. */
export class SpendingService {
  constructor(private readonly receipts: ReceiptRepository) {}

  async summary(owner: Owner, query: SpendingQuery): Promise<Spending> {
    return spendingSummary(await this.receipts.spending(owner, query));
  }
}
