import { Link, Navigate } from 'react-router-dom';
import { DataSection } from '../components/account/data-section.js';
import { DatevSection } from '../components/account/datev-section.js';
import { DeleteSection } from '../components/account/delete-section.js';
import { EmailSection } from '../components/account/email-section.js';
import { PasswordSection } from '../components/account/password-section.js';
import { RulesSection } from '../components/account/rules-section.js';
import { CategoriesSection } from '../components/account/categories-section.js';
import { TokensSection } from '../components/account/tokens-section.js';
import { WebhooksSection } from '../components/account/webhooks-section.js';
import { useProfile } from '../hooks/use-account.js';
import { usePageTitle } from '../hooks/use-page-title.js';
import './account-page.css';

/**
 * /account: one section per concern, each a component of its own under components/account/ (a
 * new section is a new file and a line here): sign-in details, what corrections taught, the DATEV
 * export's settings, access tokens for scripts, the webhooks, a copy of all the data, deleting the account.
 */
export default function AccountPage() {
  usePageTitle('Account');
  const { profile, loading } = useProfile();
  if (loading) {
    return (
      <div className="container page-loading" role="status">
        Loading your account...
      </div>
    );
  }
  if (!profile) return <Navigate to={`/login?redirect=${encodeURIComponent('/account')}`} replace />;
  return (
    <div className="container account-page">
      <div className="dashboard-head">
        <div>
          <h1>Account</h1>
          <p className="muted account-email">
            {profile.username} · {profile.email}
          </p>
        </div>
        <Link to="/dashboard" className="btn btn-outline">
          Dashboard
        </Link>
      </div>
      <div className="account-sections">
        <EmailSection email={profile.email} />
        <PasswordSection />
        <CategoriesSection />
        <RulesSection />
        <DatevSection />
        <TokensSection confirmed={profile.emailVerified} />
        <WebhooksSection confirmed={profile.emailVerified} />
        <DataSection />
        <DeleteSection />
      </div>
    </div>
  );
}
