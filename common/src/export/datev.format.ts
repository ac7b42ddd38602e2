import type { ReceiptView } from '../receipt.schema.js';
import type { DatevSettings } from './datev-settings.schema.js';
import { formulaSafe } from './formula-text.rule.js';
import type { ImportFile } from './import-file.js';

const CRLF = '\r\n';

/**
 * The 125 column headings of a Buchungsstapel, format version 13 of EXTF version 700, in order.
 * DATEV reads the columns by position; the headings are for people.
 */
export const DATEV_COLUMNS: readonly string[] = [
  'Umsatz (ohne Soll/Haben-Kz)', 'Soll/Haben-Kennzeichen', 'WKZ Umsatz', 'Kurs', 'Basis-Umsatz', 'WKZ Basis-Umsatz', 'Konto',
  'Gegenkonto (ohne BU-Schlüssel)', 'BU-Schlüssel', 'Belegdatum', 'Belegfeld 1', 'Belegfeld 2', 'Skonto', 'Buchungstext',
  'Postensperre', 'Diverse Adressnummer', 'Geschäftspartnerbank', 'Sachverhalt', 'Zinssperre', 'Beleglink',
  ...Array.from({ length: 8 }, (_, i) => [`Beleginfo - Art ${i + 1}`, `Beleginfo - Inhalt ${i + 1}`]).flat(),
  'KOST1 - Kostenstelle', 'KOST2 - Kostenstelle', 'Kost-Menge', 'EU-Land u. UStID (Bestimmung)', 'EU-Steuersatz (Bestimmung)',
  'Abw. Versteuerungsart', 'Sachverhalt L+L', 'Funktionsergänzung L+L', 'BU 49 Hauptfunktionstyp', 'BU 49 Hauptfunktionsnummer',
  'BU 49 Funktionsergänzung',
  ...Array.from({ length: 20 }, (_, i) => [`Zusatzinformation - Art ${i + 1}`, `Zusatzinformation- Inhalt ${i + 1}`]).flat(),
  'Stück', 'Gewicht', 'Zahlweise', 'Forderungsart', 'Veranlagungsjahr', 'Zugeordnete Fälligkeit', 'Skontotyp', 'Auftragsnummer',
  'Buchungstyp', 'USt-Schlüssel (Anzahlungen)', 'EU-Land (Anzahlungen)', 'Sachverhalt L+L (Anzahlungen)',
  'EU-Steuersatz (Anzahlungen)', 'Erlöskonto (Anzahlungen)', 'Herkunft-Kz', 'Buchungs GUID', 'KOST-Datum', 'SEPA-Mandatsreferenz',
  'Skontosperre', 'Gesellschaftername', 'Beteiligtennummer', 'Identifikationsnummer', 'Zeichnernummer', 'Postensperre bis',
  'Bezeichnung SoBil-Sachverhalt', 'Kennzeichen SoBil-Buchung', 'Festschreibung', 'Leistungsdatum', 'Datum Zuord. Steuerperiode',
  'Fälligkeit', 'Generalumkehr (GU)', 'Steuersatz', 'Land', 'Abrechnungsreferenz', 'BVV-Position', 'EU-Land u. UStID (Ursprung)',
  'EU-Steuersatz (Ursprung)', 'Abw. Skontokonto',
];

const AT = Object.fromEntries(DATEV_COLUMNS.map((c, i) => [c, i])) as Record<string, number>;

/**
 * A text field: in double quotes (doubled inside), on one line, never a formula to a spreadsheet
 * (the quotes do not stop Excel from running one), cut to its length.
 */
export function datevText(text: string, max: number): string {
  const line = [...formulaSafe(text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim())].slice(0, max).join('');
  return `"${line.replace(/"/g, '""')}"`;
}

/** An amount: comma decimal, two places, no thousands separator (`1234,50`). */
export const datevAmount = (value: number) => Math.abs(value).toFixed(2).replace('.', ',');

/**
 * Belegfeld 1 takes letters, digits and `$ & % * + - /`, at most 36; a leading `+` or `-` (a
 * formula to a spreadsheet) is dropped, as the field has no apostrophe to make it text.
 */
export const datevDocumentNumber = (text: string) => formulaSafe(text.replace(/[^A-Za-z0-9$&%*+\-/]/g, ''), 'drop').slice(0, 36);

/** `YYYY-MM-DD` → DATEV's `YYYYMMDD`. */
const compact = (day: string) => day.replace(/-/g, '');

/** The first day (`YYYY-MM-DD`) of the fiscal year holding `day`, for a year beginning in `startMonth`. */
export function fiscalYearStart(day: string, startMonth: number): string {
  const year = Number(day.slice(0, 4));
  const month = Number(day.slice(5, 7));
  return `${month >= startMonth ? year : year - 1}-${String(startMonth).padStart(2, '0')}-01`;
}

/**
 * Why these receipts cannot go into one batch, or null: DATEV's Belegdatum has no year, so a
 * batch lies inside one fiscal year.
 */
export function datevBatchProblem(from: string, to: string, settings: Pick<DatevSettings, 'fiscalYearStartMonth'>): string | null {
  const first = fiscalYearStart(from, settings.fiscalYearStartMonth);
  if (first === fiscalYearStart(to, settings.fiscalYearStartMonth)) return null;
  return `A DATEV batch holds one fiscal year, and these receipts run from ${from} to ${to}. Export each fiscal year on its own (filter by date).`;
}

/**
 * The BU-Schlüssel of a receipt: the key of the VAT rate its tax matches (gross total, tax
 * included), within a cent or 1 %; none when there is no tax or it matches no single rate
 * (a receipt with two rates is booked gross for the adviser to split).
 */
export function datevTaxKey(receipt: Pick<ReceiptView, 'total' | 'tax'>, taxKeys: DatevSettings['taxKeys']): string | null {
  const { total, tax } = receipt;
  if (typeof total !== 'number' || typeof tax !== 'number' || tax <= 0 || tax >= total) return null;
  for (const { rate, key } of taxKeys) {
    const expected = total - total / (1 + rate / 100);
    if (Math.abs(tax - expected) <= Math.max(0.011, expected * 0.01)) return key;
  }
  return null;
}

/**
 * The bookings of a receipt: one per VAT rate where the receipt prints a rate table whose gross
 * amounts make its total (each with its rate's BU-Schlüssel, none for a rate the settings do not
 * key), else one of the gross total with the key its tax matches (`datevTaxKey`).
 */
export function datevBookings(receipt: Pick<ReceiptView, 'total' | 'tax' | 'taxRates'>, taxKeys: DatevSettings['taxKeys']): Array<{ amount: number; key: string | null }> {
  const total = receipt.total ?? 0;
  const rates = receipt.taxRates ?? [];
  const gross = rates.reduce((sum, r) => sum + r.gross, 0);
  const keyed = rates.length > 1 && rates.every((r) => r.rate !== null && r.gross > 0) && Math.abs(gross - total) <= 0.011;
  if (!keyed) return [{ amount: total, key: datevTaxKey(receipt, taxKeys) }];
  return rates.map((r) => ({ amount: r.gross, key: taxKeys.find((k) => k.rate === r.rate)?.key ?? null }));
}

/** Kasse for cash (or no payment read), Bank for card, wallet and the rest. */
export function datevPaymentAccount(paymentMethod: string | undefined, settings: Pick<DatevSettings, 'cashAccount' | 'bankAccount'>): string {
  return !paymentMethod || paymentMethod === 'cash' ? settings.cashAccount : settings.bankAccount;
}

/** The header line: EXTF, version 700, category 21 (Buchungsstapel), format version 13, 31 fields. */
export function datevHeader(settings: DatevSettings, from: string, to: string, now: Date): string {
  const created = now.toISOString().replace(/[-:T.Z]/g, '').slice(0, 17);
  return [
    '"EXTF"',
    '700',
    '21',
    '"Buchungsstapel"',
    '13',
    created,
    '',
    '"RE"',
    datevText('Receipts to Excel', 25),
    '""',
    String(settings.consultantNumber),
    String(settings.clientNumber),
    compact(fiscalYearStart(from, settings.fiscalYearStartMonth)),
    String(settings.accountLength),
    compact(from),
    compact(to),
    datevText('Belege', 30),
    '""',
    '1',
    '0',
    '0',
    '"EUR"',
    '',
    '""',
    '',
    '',
    `"${settings.chartOfAccounts.slice(3)}"`,
    '',
    '',
    '""',
    '""',
  ].join(';');
}

/**
 * A receipt's Gegenkonto: its category's expense account in the settings, or for one of the
 * owner's own categories the account they gave it, else `other`'s.
 */
export function expenseAccount(category: string, datev: DatevSettings, own: Readonly<Record<string, string>>): string {
  const builtIn: Readonly<Record<string, string>> = datev.expenseAccounts;
  return builtIn[category] ?? own[category] ?? datev.expenseAccounts.other;
}

/**
 * DATEV Buchungsstapel (EXTF 700), a booking per receipt and VAT rate (`datevBookings`): the gross
 * amount paid from Kasse or Bank (Konto, Haben) to the category's expense account (Gegenkonto)
 * with the BU-Schlüssel of its rate; Belegdatum DDMM, the receipt number as Belegfeld 1, the
 * merchant as Buchungstext, the merchant's tax number as Beleginfo 1, the owner's tags as
 * Beleginfo 2. Semicolons, Windows-1252, CRLF, as DATEV Rechnungswesen imports it. Euros only.
 */
export const datevFile: ImportFile = {
  extension: 'csv',
  contentType: 'text/csv; charset=windows-1252',
  encoding: 'windows-1252',
  carries: 'importable',
  currencies: 'EUR',
  defaultDateFormat: 'YYYY-MM-DD',
  open({ from, to, now, datev, categoryAccounts }) {
    const today = now.toISOString().slice(0, 10);
    return {
      head: `${datevHeader(datev, from ?? today, to ?? today, now)}${CRLF}${DATEV_COLUMNS.join(';')}${CRLF}`,
      record({ receipt }) {
        const { date } = receipt;
        if (!date || typeof receipt.total !== 'number') return null;
        return datevBookings(receipt, datev.taxKeys)
          .map(({ amount, key }) => {
            const fields = new Array<string>(DATEV_COLUMNS.length).fill('');
            fields[AT['Umsatz (ohne Soll/Haben-Kz)']!] = datevAmount(amount);
            fields[AT['Soll/Haben-Kennzeichen']!] = '"H"';
            fields[AT['WKZ Umsatz']!] = '"EUR"';
            fields[AT.Konto!] = datevPaymentAccount(receipt.paymentMethod, datev);
            fields[AT['Gegenkonto (ohne BU-Schlüssel)']!] = expenseAccount(receipt.category, datev, categoryAccounts);
            fields[AT['BU-Schlüssel']!] = datevText(key ?? '', 4);
            fields[AT.Belegdatum!] = `${date.slice(8, 10)}${date.slice(5, 7)}`;
            fields[AT['Belegfeld 1']!] = datevText(datevDocumentNumber(receipt.receiptNumber ?? ''), 36);
            fields[AT.Buchungstext!] = datevText(receipt.merchantName || 'Beleg', 60);
            if (receipt.tin) {
              fields[AT['Beleginfo - Art 1']!] = datevText('USt-IdNr./Steuernr.', 20);
              fields[AT['Beleginfo - Inhalt 1']!] = datevText(receipt.tin, 210);
            }
            if (receipt.tags?.length) {
              fields[AT['Beleginfo - Art 2']!] = datevText('Tags', 20);
              fields[AT['Beleginfo - Inhalt 2']!] = datevText(receipt.tags.join(', '), 210);
            }
            return fields.join(';') + CRLF;
          })
          .join('');
      },
      tail: () => '',
    };
  },
};
