import { ACCOUNT_DATA_URL } from '../../lib/account-api.js';

/** Download all my data: one zip, straight from the server (it can be large; the browser saves it as it arrives). */
export function DataSection() {
  return (
    <section className="card account-section" aria-labelledby="data-title">
      <h2 id="data-title">Download all my data</h2>
      <p>
        One zip file with every receipt as an Excel workbook (Receipts, Validation Issues and Summary sheets), the original files you uploaded, and your
        account details: your plan, the rules learned from your corrections and your DATEV settings.
      </p>
      <p className="muted small">Original files are kept for 90 days after upload; the extracted data stays until you delete your account.</p>
      <a className="btn btn-outline" href={ACCOUNT_DATA_URL} download>
        Download my data (.zip)
      </a>
    </section>
  );
}
