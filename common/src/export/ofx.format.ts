import { categoryLabel, spent, tagsText, vatNumber } from './accounting-presets.js';
import { formulaSafe } from './formula-text.rule.js';
import type { ImportFile } from './import-file.js';
import { currencyStyle, plainAmount } from './money-format.rule.js';

const CRLF = '\r\n';

/**
 * Text as an OFX 1.x (SGML) element holds it: one line, never a formula (the product that imports
 * it may export it to a spreadsheet), `& < >` as entities, cut to the element's length.
 */
export function ofxText(text: string, max: number): string {
  const line = [...formulaSafe(text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim())].slice(0, max).join('');
  return line.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** `YYYY-MM-DD` → OFX's `YYYYMMDD`. */
const ofxDay = (day: string) => day.replace(/-/g, '');
const ofxTime = (at: Date) => at.toISOString().replace(/[-:T]/g, '').slice(0, 14);

/**
 * An OFX 1.0.2 bank statement (the SGML flavour banks give out and QuickBooks Desktop, Wave,
 * GnuCash, YNAB and others read): one statement in the receipts' currency, a DEBIT transaction
 * per receipt with a negative amount, the receipt id as FITID (so a second import of the same
 * receipt is recognised), and a closing balance that is the sum of the file.
 */
export const ofxFile: ImportFile = {
  extension: 'ofx',
  contentType: 'application/x-ofx',
  encoding: 'utf-8',
  carries: 'importable',
  currencies: 'single',
  defaultDateFormat: 'YYYY-MM-DD',
  open({ currency, from, to, now }) {
    const minor = 10 ** currencyStyle(currency).decimals;
    // In minor units: a sum of floats would drift.
    let balance = 0;
    const element = (name: string, value: string) => `<${name}>${value}${CRLF}`;
    const head = [
      'OFXHEADER:100',
      'DATA:OFXSGML',
      'VERSION:102',
      'SECURITY:NONE',
      'ENCODING:UTF-8',
      'CHARSET:NONE',
      'COMPRESSION:NONE',
      'OLDFILEUID:NONE',
      'NEWFILEUID:NONE',
      '',
      '<OFX>',
      '<SIGNONMSGSRSV1>',
      '<SONRS>',
      '<STATUS>',
      '<CODE>0',
      '<SEVERITY>INFO',
      '</STATUS>',
      `<DTSERVER>${ofxTime(now)}`,
      '<LANGUAGE>ENG',
      '</SONRS>',
      '</SIGNONMSGSRSV1>',
      '<BANKMSGSRSV1>',
      '<STMTTRNRS>',
      '<TRNUID>1',
      '<STATUS>',
      '<CODE>0',
      '<SEVERITY>INFO',
      '</STATUS>',
      '<STMTRS>',
      `<CURDEF>${currency}`,
      '<BANKACCTFROM>',
      '<BANKID>000000000',
      '<ACCTID>RECEIPTS',
      '<ACCTTYPE>CHECKING',
      '</BANKACCTFROM>',
      '<BANKTRANLIST>',
      `<DTSTART>${ofxDay(from ?? now.toISOString().slice(0, 10))}`,
      `<DTEND>${ofxDay(to ?? now.toISOString().slice(0, 10))}`,
      '',
    ].join(CRLF);
    return {
      head,
      record(source) {
        const { receipt } = source;
        const amount = spent(source);
        if (!receipt.date || amount === null) return null;
        balance -= Math.round((receipt.total ?? 0) * minor);
        const memo = [categoryLabel(receipt.category), receipt.receiptNumber ? `#${receipt.receiptNumber}` : null, receipt.tin ? vatNumber(receipt.tin) : null, receipt.tags?.length ? tagsText(receipt.tags) : null, source.filename]
          .filter(Boolean)
          .join(' ');
        return (
          `<STMTTRN>${CRLF}` +
          element('TRNTYPE', 'DEBIT') +
          element('DTPOSTED', ofxDay(receipt.date)) +
          element('TRNAMT', amount) +
          element('FITID', receipt.id) +
          element('NAME', ofxText(receipt.merchantName || 'Receipt', 32)) +
          element('MEMO', ofxText(memo, 255)) +
          `</STMTTRN>${CRLF}`
        );
      },
      tail: () =>
        [
          '</BANKTRANLIST>',
          '<LEDGERBAL>',
          `<BALAMT>${plainAmount(balance / minor, currency)}`,
          `<DTASOF>${ofxDay(to ?? now.toISOString().slice(0, 10))}`,
          '</LEDGERBAL>',
          '</STMTRS>',
          '</STMTTRNRS>',
          '</BANKMSGSRSV1>',
          '</OFX>',
          '',
        ].join(CRLF),
    };
  },
};
