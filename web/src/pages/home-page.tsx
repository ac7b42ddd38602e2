import {
  ACCEPTED_MIME_TYPES,
  BUNDLED_OCR_LANGUAGES,
  CATEGORIES,
  currencyOption,
  fileTypeList,
  FREE_DAILY_LIMIT,
  MEASURED_ACCURACY,
  MEASURED_OCR_LANGUAGES,
  PIPELINE_STEPS,
  SUPPORTED_CURRENCY_COUNT,
} from '@receipts/common';
import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { ExportPreview } from '../components/export-preview.js';
import { UploaderCard } from '../components/uploader-card.js';
import { useProfile } from '../hooks/use-account.js';
import { useCurrency } from '../hooks/use-currency.js';
import { demoCurrency, formatDemo, SAMPLE_BASE_PRICE } from '../lib/currency.js';
import { COUNTRIES } from '../lib/demo-data.js';
import { sampleExportUrl } from '../lib/export-api.js';
import { usePageTitle } from '../hooks/use-page-title.js';
import { toast } from '../lib/toast.js';
import './home-page.css';

const pct = (share: number) => `${Math.round(share * 100)}%`;
const listed = (names: readonly string[]) => `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;

export const HOME_STATS = [
  { value: pct(MEASURED_ACCURACY.photos.total), label: `of receipt totals read exactly in our benchmark of ${MEASURED_ACCURACY.photos.receipts} ${MEASURED_ACCURACY.photos.description}` },
  { value: pct(MEASURED_ACCURACY.ready.precision), label: 'of the receipts we call ready for export have every key field right; the others are flagged for you to check' },
  { value: String(SUPPORTED_CURRENCY_COUNT), label: 'ISO 4217 currencies recognised on receipts' },
  { value: String(PIPELINE_STEPS.length), label: 'processing steps you can watch live for every file' },
];

const BENEFITS = [
  { title: 'Structured Data', text: 'Merchant, date, time, subtotal, tax, tip, discount, total, payment method and up to 20 line items — one row per receipt.' },
  { title: 'Accounting Ready', text: 'Download Excel or CSV in a generic layout or shaped for QuickBooks and Xero imports.' },
  { title: 'Smart Categories', text: `Each receipt is sorted into ${CATEGORIES.length} categories (${CATEGORIES.join(', ')}) from the merchant and its items.` },
];

const FEATURES = [
  { title: 'Batch uploads', text: 'Drop many receipts at once; each one moves through the queue on its own.' },
  { title: 'Live progress', text: 'See every step — reading, recognising, extracting, checking — as it happens, in every open tab.' },
  { title: 'Validation checks', text: 'Totals that do not add up, odd tax rates and impossible dates are flagged beside the field.' },
  { title: 'Fix what OCR missed', text: 'Correct any field in the receipt details; the checks run again on your corrections.' },
  { title: 'Photos and PDFs', text: `${fileTypeList(ACCEPTED_MIME_TYPES, 'and')} files up to 10MB, scanned or digital.` },
  { title: 'Private by design', text: 'Receipt images are deleted after 90 days; your extracted data stays until you delete it.' },
];

export function HomePage() {
  usePageTitle('Receipts to Excel');
  const { signedIn, loading } = useProfile();
  const [currency, setCurrency] = useCurrency();
  const shown = demoCurrency(currency);
  const [params, setParams] = useSearchParams();
  // Arriving from a deleted account: say it is done, once.
  useEffect(() => {
    if (params.get('deleted') !== '1') return;
    toast({ title: 'Account deleted', description: 'Your account and all its data have been deleted.' });
    setParams({}, { replace: true });
  }, [params, setParams]);

  return (
    <>
      <section className="hero">
        <div className="container hero-inner">
          <span className="badge">Free to try — {FREE_DAILY_LIMIT} receipts a day, no card needed</span>
          <h1>Turn receipts into Excel data in minutes</h1>
          <p className="hero-lead">
            Drop photos or PDFs of your receipts, watch each one being read, check the fields, and download a clean spreadsheet for your books.
          </p>
          {!loading && !signedIn && (
            <div className="button-row hero-actions">
              <Link to="/register" className="btn btn-primary btn-lg">
                Get Started Free
              </Link>
              <Link to="/pricing" className="btn btn-outline btn-lg">
                View Pricing
              </Link>
            </div>
          )}
        </div>
        <div className="container uploader-wrap">
          <UploaderCard currency={currency} onCurrency={setCurrency} />
        </div>
      </section>

      <ExportPreview currency={currency} />

      <section className="section section-alt" aria-labelledby="sample-title">
        <div className="container sample">
          <div>
            <h2 id="sample-title" className="section-title">
              A sample result
            </h2>
            <p className="section-lead">One grocery receipt, read and checked: the total below is what lands in your spreadsheet.</p>
            <dl className="sample-card">
              <div>
                <dt>Merchant</dt>
                <dd>Green Valley Grocers</dd>
              </div>
              <div>
                <dt>Items</dt>
                <dd>12</dd>
              </div>
              <div>
                <dt>Total</dt>
                <dd className="sample-price" data-testid="sample-price">
                  {formatDemo(SAMPLE_BASE_PRICE, shown)}
                </dd>
              </div>
            </dl>
            <p className="muted small">
              Shown in {currencyOption(shown)?.label ?? shown} at a fixed demo rate.
            </p>
            {/* The sample itself, as a workbook: a new visitor has no receipts of their own to export yet. */}
            <a className="btn btn-primary" href={sampleExportUrl(shown)} download>
              Download Excel
            </a>
          </div>
          <div className="benefits">
            {BENEFITS.map((b) => (
              <article key={b.title} className="card benefit">
                <h3>{b.title}</h3>
                <p>{b.text}</p>
              </article>
            ))}
          </div>
        </div>
      </section>

      <section className="section" aria-labelledby="world-title">
        <div className="container">
          <h2 id="world-title" className="section-title">
            Works worldwide
          </h2>
          <p className="section-lead">
            Pick your currency before uploading, or let the receipt tell us: symbols, codes and place names are recognised. Text recognition ships with{' '}
            {listed(BUNDLED_OCR_LANGUAGES)}; our benchmark has measured receipts in {listed(MEASURED_OCR_LANGUAGES)}.
          </p>
          <ul className="country-grid">
            {COUNTRIES.map((c) => (
              <li key={c.name} className="card country">
                <span className="flag" aria-hidden="true">
                  {c.code}
                </span>
                <span>
                  <strong>{c.name}</strong>
                  <br />
                  <span className="muted">{c.currency}</span>
                </span>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="section section-alt" aria-labelledby="stats-title">
        <div className="container">
          <h2 id="stats-title" className="section-title">
            Measured, not promised
          </h2>
          <ul className="stats">
            {HOME_STATS.map((s) => (
              <li key={s.label}>
                <span className="stat-value">{s.value}</span>
                <span className="stat-label">{s.label}</span>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="section" aria-labelledby="features-title">
        <div className="container">
          <h2 id="features-title" className="section-title">
            Everything a receipt needs
          </h2>
          <div className="feature-grid">
            {FEATURES.map((f) => (
              <article key={f.title} className="card feature">
                <h3>{f.title}</h3>
                <p>{f.text}</p>
              </article>
            ))}
          </div>
        </div>
      </section>

      {!loading && !signedIn && (
        <section className="section cta" aria-labelledby="cta-title">
          <div className="container cta-inner">
            <h2 id="cta-title">Ready to stop typing receipts?</h2>
            <p>Create a free account for 5 receipts a day and a library of everything you upload.</p>
            <div className="button-row">
              <Link to="/register" className="btn btn-light btn-lg">
                Start Free Trial
              </Link>
              <Link to="/pricing" className="btn btn-outline-light btn-lg">
                View Plans
              </Link>
            </div>
          </div>
        </section>
      )}
    </>
  );
}
