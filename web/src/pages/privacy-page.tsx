import { Link } from 'react-router-dom';
import { usePageTitle } from '../hooks/use-page-title.js';
import { SUPPORT_EMAIL } from '../lib/site.js';

export function PrivacyPage() {
  usePageTitle('Privacy Policy');
  return (
    <div className="container page-narrow prose">
      <h1>Privacy Policy</h1>
      <p className="muted">Last updated January 15, 2025</p>
      <h2>What we collect</h2>
      <p>
        The receipt files you upload, the data we extract from them, your e-mail address and password hash when you create an account, and
        usage logs (which pages and features are used).
      </p>
      <h2>How long we keep it</h2>
      <ul>
        <li>Receipt images: 90 days, then deleted.</li>
        <li>Usage logs: 12 months.</li>
        <li>Extracted receipt data: until you delete it or your account.</li>
      </ul>
      <h2>Who sees it</h2>
      <p>
        Only you. Receipts are read by our own servers{' '}
        <span>(or by Google Document AI, or a hosted vision model, where the service is configured to use one)</span>. Payments are processed by Stripe. When analytics are
        enabled, page views and anonymous usage events go to our analytics provider with advertising storage turned off.
      </p>
      <h2>Your rights</h2>
      <p>
        Your <Link to="/account">account page</Link> gives you a copy of all your data (Download my data: your receipts, originals, settings, plan and
        rules) and deletes your account with everything in it, at once. Anything else, or a visitor without an account: write to{' '}
        <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>.
      </p>
    </div>
  );
}
