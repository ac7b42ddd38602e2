import { usePageTitle } from '../hooks/use-page-title.js';
import './about-page.css';

const VALUES = [
  ['Honest numbers', 'Every figure on our pages is one we measured or one the product enforces.'],
  ['Your data is yours', 'We keep receipt images for 90 days and never sell or share what we extract.'],
  ['Visible work', 'You watch each receipt move through the queue instead of waiting on a spinner.'],
];

const TIMELINE = [
  ['The idea', 'Typing receipts into spreadsheets by hand, month after month, for a small business’s books.'],
  ['First version', 'Upload a receipt, read it with OCR, download a spreadsheet.'],
  ['A real queue', 'Batches, live progress for every file, and workers that can fail without losing anything.'],
  ['Ready for accountants', 'Validation checks, corrections, and QuickBooks and Xero layouts.'],
];

export function AboutPage() {
  usePageTitle('About');
  return (
    <div>
      <section className="page-hero">
        <div className="container">
          <h1>About us</h1>
          <p className="hero-lead">We build the tool we wanted: receipts in, clean spreadsheet out, no retyping.</p>
        </div>
      </section>
      <section className="section" aria-labelledby="story">
        <div className="container page-narrow">
          <h2 id="story" className="section-title">
            Our story
          </h2>
          <p>
            Expense tracking still means a shoebox of paper and an evening of typing. We started Receipts to Excel to turn that evening into a
            few minutes: drop the photos, check what was read, and download a workbook your accountant can import.
          </p>
        </div>
      </section>
      <section className="section section-alt" aria-labelledby="values">
        <div className="container">
          <h2 id="values" className="section-title">
            Our values
          </h2>
          <div className="feature-grid">
            {VALUES.map(([t, d]) => (
              <article key={t} className="card feature">
                <h3>{t}</h3>
                <p>{d}</p>
              </article>
            ))}
          </div>
        </div>
      </section>
      <section className="section" aria-labelledby="team">
        <div className="container page-narrow">
          <h2 id="team" className="section-title">
            Our team
          </h2>
          <p>
            A small team of engineers who care about getting the numbers right: text recognition, data validation, and a web app that stays fast
            when a hundred receipts arrive at once.
          </p>
        </div>
      </section>
      <section className="section section-alt" aria-labelledby="timeline">
        <div className="container page-narrow">
          <h2 id="timeline" className="section-title">
            Timeline
          </h2>
          <ol className="timeline">
            {TIMELINE.map(([t, d]) => (
              <li key={t}>
                <strong>{t}</strong>
                <p>{d}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>
    </div>
  );
}
