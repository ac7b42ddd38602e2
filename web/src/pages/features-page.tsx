import { ACCEPTED_MIME_TYPES, CATEGORIES, fileTypeList, MEASURED_ACCURACY, SUPPORTED_CURRENCY_COUNT } from '@receipts/common';
import { Link } from 'react-router-dom';
import { usePageTitle } from '../hooks/use-page-title.js';

const { photos, scans, ready } = MEASURED_ACCURACY;
const pct = (x: number) => `${Math.round(x * 100)}%`;

const SECTIONS = [
  {
    id: 'core',
    title: 'Core features',
    items: [
      ['Upload photos and PDFs', `${fileTypeList(ACCEPTED_MIME_TYPES, 'and')} up to 10MB each; drop many at once.`],
      ['Live processing', 'Every file reports its real steps — reading, recognising text, extracting, checking, saving — as they happen.'],
      ['Structured fields', 'Merchant, date, time, subtotal, tax, tip, discount, total, payment method, receipt number, TIN and line items.'],
      ['Excel export', 'A workbook with three sheets: Receipts, Validation Issues and Summary.'],
    ],
  },
  {
    id: 'advanced',
    title: 'Advanced capabilities',
    items: [
      ['Validation', 'Totals are checked against subtotal + tax + tip − discount; odd tax rates, impossible dates and missing fields are flagged.'],
      ['Corrections', 'Fix any field in the receipt details; the checks run again on what you typed.'],
      [
        'Categories and tags',
        `Receipts are sorted into ${CATEGORIES.join(', ')}; signed in, add categories of your own (each with its DATEV account) and tags, filter by them, and find them in every export. A merchant you file or tag once is filed and tagged so from then on.`,
      ],
      ['Currencies', `${SUPPORTED_CURRENCY_COUNT} ISO 4217 currencies recognised from codes, symbols and place names.`],
      [
        'Measured accuracy',
        `On ${photos.receipts} ${photos.description}: ${pct(photos.total)} of totals, ${pct(photos.date)} of dates, ${pct(photos.merchant)} of merchant names and ${pct(photos.currency)} of currencies read correctly. On ${scans.receipts} ${scans.description}: ${pct(scans.total)}, ${pct(scans.date)} and ${pct(scans.merchant)}. Of the receipts called ready for export, ${pct(ready.precision)} had total, date, merchant and currency all right; the other ${pct(1 - ready.coverage)} carry a flag saying which field to check.`,
      ],
      ['Duplicate warnings', 'A receipt uploaded twice is flagged, never silently dropped.'],
    ],
  },
  {
    id: 'integrations',
    title: 'Integrations',
    items: [
      ['Excel', 'Native .xlsx files (every field, the line items and the VAT per rate), or CSV for any spreadsheet.'],
      ['QuickBooks and Xero', 'Their bank-statement CSVs, one file per currency: each receipt a payment, with the merchant, receipt number and VAT number.'],
      ['YNAB and Firefly III', 'YNAB’s file import and Firefly III’s CSV with the data importer’s configuration beside it.'],
      ['OFX and QIF', 'Bank statements Quicken, GnuCash, Wave and QuickBooks Desktop read.'],
      ['DATEV', 'A Buchungsstapel for your tax adviser: your accounts, a booking per VAT rate with its tax key.'],
      ['Export pack', 'A zip of the workbook, the import file and every original, with a note of what the import left out and why.'],
    ],
  },
  {
    id: 'security',
    title: 'Security',
    items: [
      ['Private by default', 'Only you see your receipts; sessions are protected against cross-site requests.'],
      ['Limited retention', 'Original images are deleted after 90 days; extracted data stays until you delete it.'],
      ['Passwords', 'Stored only as memory-hard hashes; sign-in attempts are rate-limited.'],
      ['Payments', 'Handled by Stripe; card numbers never reach our servers.'],
    ],
  },
] as const;

export function FeaturesPage() {
  usePageTitle('Features');
  return (
    <div>
      <section className="page-hero">
        <div className="container">
          <h1>Features</h1>
          <p className="hero-lead">From a crumpled receipt to a row in your spreadsheet, with every step visible and every field checked.</p>
        </div>
      </section>
      {SECTIONS.map((s, i) => (
        <section key={s.id} className={`section${i % 2 ? ' section-alt' : ''}`} aria-labelledby={`f-${s.id}`}>
          <div className="container">
            <h2 id={`f-${s.id}`} className="section-title">
              {s.title}
            </h2>
            <div className="feature-grid">
              {s.items.map(([title, text]) => (
                <article key={title} className="card feature">
                  <h3>{title}</h3>
                  <p>{text}</p>
                </article>
              ))}
            </div>
          </div>
        </section>
      ))}
      <section className="section cta">
        <div className="container cta-inner">
          <h2>See it on your own receipts</h2>
          <Link to="/" className="btn btn-light btn-lg">
            Try it free
          </Link>
        </div>
      </section>
    </div>
  );
}
