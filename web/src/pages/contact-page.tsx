import { usePageTitle } from '../hooks/use-page-title.js';
import { SUPPORT_EMAIL, SUPPORT_RESPONSE_HOURS } from '../lib/site.js';

export function ContactPage() {
  usePageTitle('Contact Us');
  return (
    <div className="container page-narrow">
      <h1>Contact Us</h1>
      <p className="hero-lead">Questions about your receipts, your plan or your data? Write to us.</p>
      <div className="card">
        <h2>Support</h2>
        <p>
          E-mail <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>. We answer within {SUPPORT_RESPONSE_HOURS} hours.
        </p>
        <p className="muted">For a problem with a receipt, tell us the file name and the time you uploaded it.</p>
      </div>
    </div>
  );
}
