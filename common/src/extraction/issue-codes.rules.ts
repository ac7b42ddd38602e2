/** Receipts with a quality below this are flagged (spec §4). */
export const QUALITY_THRESHOLD = 0.6;

/** Receipt fields a flag can be about. */
export const ISSUE_FIELDS = ['merchantName', 'date', 'total', 'subtotal', 'tax', 'currency', 'items'] as const;
export type IssueField = (typeof ISSUE_FIELDS)[number];

interface FlagKind {
  /** The message people read, character for character; `{name}` stands for one of the flag's values. */
  text: string;
  /** The field the flag is shown beside; null when it is about the receipt as a whole. */
  field: IssueField | null;
  /** Every field the flag concerns. */
  fields: readonly IssueField[];
}

/**
 * Every flag a receipt can carry, by its code: the issues of spec §5, items that make none of the
 * sums, the extraction's doubts about key fields, low quality, and a message kept from before
 * flags had codes. A flag is a code with values; its message is made from this table alone.
 */
export const FLAG_KINDS = {
  missingKeyFields: { text: 'Missing all key fields (merchant, total, and date)', field: null, fields: ['merchantName', 'date', 'total'] },
  totalMismatch: { text: 'Total mismatch: {total} vs calculated {calculated}', field: 'total', fields: ['total', 'subtotal', 'tax'] },
  invalidDate: { text: 'Invalid date format', field: 'date', fields: ['date'] },
  dateOutOfRange: { text: 'Date out of reasonable range', field: 'date', fields: ['date'] },
  nonPositiveTotal: { text: 'Zero or negative total amount', field: 'total', fields: ['total'] },
  largeTotal: { text: 'Unusually large total amount', field: 'total', fields: ['total'] },
  suspiciousTaxRate: { text: 'Suspicious tax rate: {rate}%', field: 'tax', fields: ['tax'] },
  itemsDontAddUp: { text: 'Items add up to {sum}, not {expected}', field: 'items', fields: ['items', 'subtotal', 'total'] },
  // Doubts about a key field (confidence.rule.ts): each names the field and what a person can check.
  totalNotFound: { text: 'Total not found', field: 'total', fields: ['total'] },
  totalUnconfirmed: { text: 'Total not confirmed by subtotal and tax', field: 'total', fields: ['total', 'subtotal', 'tax'] },
  totalHandwritten: { text: 'Total may be handwritten', field: 'total', fields: ['total'] },
  dateNotFound: { text: 'Date not found', field: 'date', fields: ['date'] },
  dateEitherWay: { text: 'Day and month could be either way', field: 'date', fields: ['date'] },
  dateFarFromOthers: { text: "Date far from the receipt's other dates", field: 'date', fields: ['date'] },
  merchantNotFound: { text: 'Merchant not found', field: 'merchantName', fields: ['merchantName'] },
  merchantBelowHeader: { text: 'Merchant read from a line below the header', field: 'merchantName', fields: ['merchantName'] },
  merchantUnconfirmed: { text: 'Merchant not confirmed by a business word or known chain', field: 'merchantName', fields: ['merchantName'] },
  merchantMayContinue: { text: 'Merchant name may continue on the next line', field: 'merchantName', fields: ['merchantName'] },
  currencyAssumed: { text: 'Currency not printed; assumed from your choice', field: 'currency', fields: ['currency'] },
  currencyDefault: { text: 'Currency not printed; assumed USD', field: 'currency', fields: ['currency'] },
  currencyWeak: { text: 'Currency sign printed, but several currencies use it', field: 'currency', fields: ['currency'] },
  // The Validation Issues sheet's wording for a receipt below the quality threshold.
  lowQuality: { text: `Quality below ${QUALITY_THRESHOLD * 100}%`, field: null, fields: [] },
  // A message no code matched: kept as it was written, never lost.
  legacy: { text: '{text}', field: null, fields: [] },
} as const satisfies Record<string, FlagKind>;

export type FlagCode = keyof typeof FLAG_KINDS;

/** A flag as stored: its code and the values its message names. */
export interface IssueFlag {
  code: FlagCode;
  values: Record<string, string>;
}

/** The flag's message, made from its code's template and its values. */
export function renderIssue(flag: IssueFlag): string {
  return FLAG_KINDS[flag.code].text.replace(/\{(\w+)\}/g, (_, name: string) => flag.values[name] ?? '');
}

/** A flag as a receipt view shows it: with the field it is shown beside and its message. */
export function flagView(flag: IssueFlag): IssueFlag & { field: IssueField | null; message: string } {
  return { code: flag.code, values: flag.values, field: FLAG_KINDS[flag.code].field, message: renderIssue(flag) };
}

/** A receipt's flags as its view shows them: the messages, and the flags beside them. */
export function shownIssues(flags: readonly IssueFlag[]): { issues: string[]; flags: Array<ReturnType<typeof flagView>> } {
  const views = flags.map(flagView);
  return { issues: views.map((view) => view.message), flags: views };
}

/** A flag of the code with those values. */
export function issueFlag(code: FlagCode, values: Record<string, string> = {}): IssueFlag {
  return { code, values };
}

// Each template read as a pattern whose groups are its values, for messages written before flags had codes.
const PATTERNS = (Object.keys(FLAG_KINDS) as FlagCode[])
  .filter((code) => code !== 'legacy')
  .map((code) => {
    const text = FLAG_KINDS[code].text;
    const names = [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    const literal = text.split(/\{\w+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    return { code, names, pattern: new RegExp(`^${literal.join('(.+)')}$`) };
  });

/** The flag a message states; a message no template matches whole is kept as a legacy flag, rendered as itself. */
export function flagOfMessage(message: string): IssueFlag {
  for (const { code, names, pattern } of PATTERNS) {
    const m = pattern.exec(message);
    if (m) return { code, values: Object.fromEntries(names.map((name, i) => [name, m[i + 1]!])) };
  }
  return { code: 'legacy', values: { text: message } };
}
