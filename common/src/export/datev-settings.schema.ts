import { z } from 'zod';
import { CATEGORIES, type Category } from '../receipt.schema.js';

const account = z.string().trim().regex(/^\d{4,8}$/, 'An account number is 4 to 8 digits');

/**
 * A user's DATEV export settings (account page): who the batch is for, the accounts a receipt is
 * booked to and the tax keys (BU-Schlüssel) by VAT rate. Kept per user because they come from the
 * user's tax adviser and stay the same from export to export.
 */
export const datevSettingsSchema = z
  .object({
    /** Beraternummer: the tax adviser's number. */
    consultantNumber: z.number().int().min(1001, 'The Beraternummer is 1001 to 9999999').max(9999999, 'The Beraternummer is 1001 to 9999999'),
    /** Mandantennummer: the client's number at the adviser. */
    clientNumber: z.number().int().min(1, 'The Mandantennummer is 1 to 99999').max(99999, 'The Mandantennummer is 1 to 99999'),
    /** The month the fiscal year (Wirtschaftsjahr) begins. */
    fiscalYearStartMonth: z.number().int().min(1).max(12),
    /** Sachkontenlänge: digits of a general-ledger account. */
    accountLength: z.number().int().min(4, 'Accounts have 4 to 8 digits').max(8, 'Accounts have 4 to 8 digits'),
    chartOfAccounts: z.enum(['SKR03', 'SKR04']),
    /** Where a receipt paid in cash (or with no payment read) is paid from: Kasse. */
    cashAccount: account,
    /** Where a receipt paid by card or wallet is paid from: Bank. */
    bankAccount: account,
    /** The expense account (Gegenkonto) of each category. */
    expenseAccounts: z.object(Object.fromEntries(CATEGORIES.map((c) => [c, account])) as Record<Category, typeof account>),
    /** BU-Schlüssel by VAT rate (percent); a receipt whose tax matches no rate is booked without one. */
    taxKeys: z
      .array(z.object({ rate: z.number().positive().max(100), key: z.string().trim().regex(/^\d{1,4}$/, 'A BU-Schlüssel is 1 to 4 digits') }))
      .max(10),
  })
  .superRefine((settings, ctx) => {
    const accounts = [settings.cashAccount, settings.bankAccount, ...Object.values(settings.expenseAccounts)];
    if (accounts.some((a) => a.length !== settings.accountLength)) {
      ctx.addIssue({ code: 'custom', path: ['accountLength'], message: `Every account must have ${settings.accountLength} digits (the Sachkontenlänge)` });
    }
  });
export type DatevSettings = z.infer<typeof datevSettingsSchema>;

/** What each of the DATEV settings is called where people read which changed (the audit trail). */
export const DATEV_SETTING_LABELS: Record<keyof DatevSettings, string> = {
  consultantNumber: 'Beraternummer',
  clientNumber: 'Mandantennummer',
  fiscalYearStartMonth: 'fiscal year start',
  accountLength: 'Sachkontenlänge',
  chartOfAccounts: 'chart of accounts',
  cashAccount: 'Kasse',
  bankAccount: 'Bank',
  expenseAccounts: 'expense accounts',
  taxKeys: 'BU-Schlüssel',
};

/** A value as text with its objects' keys in order: stored settings (jsonb) come back with their keys reordered. */
const canonical = (value: unknown): string =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? `{${Object.keys(value)
        .sort()
        .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
        .join(',')}}`
    : Array.isArray(value)
      ? `[${value.map(canonical).join(',')}]`
      : JSON.stringify(value);

/** The settings that differ between two versions, in the settings' order. */
export function changedDatevSettings(before: DatevSettings, after: DatevSettings): Array<keyof DatevSettings> {
  return (Object.keys(DATEV_SETTING_LABELS) as Array<keyof DatevSettings>).filter((key) => canonical(before[key]) !== canonical(after[key]));
}

/** GET and PUT /api/user/datev-settings: the settings in use, and whether they are the user's own (false: the defaults below). */
export const datevSettingsViewSchema = z.object({ settings: datevSettingsSchema, saved: z.boolean() });
export type DatevSettingsView = z.infer<typeof datevSettingsViewSchema>;

/**
 * SKR03 defaults: Kasse 1000, Bank 1200; Bewirtungskosten 4650, laufende Kfz-Betriebskosten 4530,
 * sonstiger Betriebsbedarf 4980, sonstige betriebliche Aufwendungen 4900; Vorsteuer 19 % key 9,
 * 7 % key 8. The adviser numbers are placeholders until the user enters theirs.
 */
export const DEFAULT_DATEV_SETTINGS: DatevSettings = {
  consultantNumber: 1001,
  clientNumber: 1,
  fiscalYearStartMonth: 1,
  accountLength: 4,
  chartOfAccounts: 'SKR03',
  cashAccount: '1000',
  bankAccount: '1200',
  expenseAccounts: { grocery: '4980', restaurant: '4650', gas: '4530', retail: '4980', pharmacy: '4900', other: '4900' },
  taxKeys: [
    { rate: 19, key: '9' },
    { rate: 7, key: '8' },
  ],
};
