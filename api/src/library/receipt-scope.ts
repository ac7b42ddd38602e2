import type { ReceiptFilter } from '@receipts/common';
import { schema } from '@receipts/infra';
import { and, eq, getTableColumns, gte, ilike, inArray, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Owner } from '../session.js';
import { ownedBy } from '../upload.service.js';

const { receipts } = schema;

/** A LIKE pattern that matches `text` literally anywhere. */
function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The caller's receipts matching the library filters (and, for an export of a selection, its
 * ids): the one definition the library list and the export share.
 */
export function receiptScope(owner: Owner, filter: ReceiptFilter, ids?: readonly string[]): SQL {
  const conditions: Array<SQL | undefined> = [ownedBy(owner)];
  if (filter.q) conditions.push(or(ilike(receipts.merchantName, containing(filter.q)), ilike(receipts.rawText, containing(filter.q))));
  if (filter.from) conditions.push(gte(receipts.date, filter.from));
  if (filter.to) conditions.push(lte(receipts.date, filter.to));
  if (filter.category) conditions.push(eq(receipts.category, filter.category));
  if (filter.currency) conditions.push(eq(receipts.currency, filter.currency));
  if (ids) conditions.push(inArray(receipts.id, [...ids]));
  return and(...conditions)!;
}

const { rawText: _fullText, ...columns } = getTableColumns(receipts);
/** The recognized text cut to what a view shows (one character more than the 200-character preview, so the view still adds "..."). */
const rawTextPreview = sql<string>`left(${receipts.rawText}, 201)`;

/** A receipt row with its recognized text cut to the preview. */
export const receiptPreviewColumns = { ...columns, rawText: rawTextPreview };

