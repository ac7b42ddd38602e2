import { useEffect } from 'react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { AnalyticsReporter } from './components/analytics-reporter.js';
import { Footer } from './components/footer.js';
import { lazyPage } from './components/lazy-page.js';
import { NavBar } from './components/nav-bar.js';
import { Toaster } from './components/toaster.js';
import { VerifyEmailBanner } from './components/verify-email-banner.js';
import { useProfile } from './hooks/use-account.js';
import { useLiveUploads } from './hooks/use-live-uploads.js';
import { AUDIT_PAGE_PATH } from './lib/audit-api.js';
import { REPORTS_PAGE_PATH } from './lib/workspace-plan-api.js';
import { AboutPage } from './pages/about-page.js';
import { ContactPage } from './pages/contact-page.js';
import { DashboardPage } from './pages/dashboard-page.js';
import { FeaturesPage } from './pages/features-page.js';
import { ForgotPasswordPage } from './pages/forgot-password-page.js';
import { HomePage } from './pages/home-page.js';
import { InvitePage } from './pages/invite-page.js';
import { LoginPage } from './pages/login-page.js';
import { NotFoundPage } from './pages/not-found-page.js';
import { PricingPage } from './pages/pricing-page.js';
import { PrivacyPage } from './pages/privacy-page.js';
import { ReceiptsPage } from './pages/receipts-page.js';
import { RegisterPage } from './pages/register-page.js';
import { ResetPasswordPage } from './pages/reset-password-page.js';
import { SubscribePage } from './pages/subscribe-page.js';
import { SuccessPage } from './pages/success-page.js';
import { VerifyEmailPage } from './pages/verify-email-page.js';

const BillingPage = lazyPage('billing', () => import('./pages/billing-page.js'));
const AccountPage = lazyPage('account', () => import('./pages/account-page.js'));
const BlogPage = lazyPage('blog', () => import('./pages/blog-page.js'));
const BlogPostPage = lazyPage('blog post', () => import('./pages/blog-post-page.js'));
const AdminPage = lazyPage('admin', () => import('./pages/admin-page.js'));
const ReviewPage = lazyPage('review', () => import('./pages/review-page.js'));
const MembersPage = lazyPage('members', () => import('./pages/members-page.js'));
const ReportsPage = lazyPage('reports', () => import('./pages/reports-page.js'));
const ApprovalsPage = lazyPage('approvals', () => import('./pages/approvals-page.js'));
const AuditPage = lazyPage('audit trail', () => import('./pages/audit-page.js'));

/** A new page starts at its top, or at the element its #hash names. */
function ScrollToTop() {
  const { pathname, hash } = useLocation();
  // Chromium's scrollTo returns a promise, which must not become the effect's cleanup.
  useEffect(() => {
    const target = hash ? document.getElementById(hash.slice(1)) : null;
    if (target) target.scrollIntoView();
    else window.scrollTo(0, 0);
  }, [pathname, hash]);
  return null;
}

export function App() {
  const { profile, loading } = useProfile();
  // A new session (sign in or out) means a new socket identity.
  useLiveUploads(loading ? 'loading' : (profile?.email ?? 'anonymous'));
  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <AnalyticsReporter />
      <ScrollToTop />
      <NavBar />
      <VerifyEmailBanner />
      <main id="main" tabIndex={-1}>
        <Routes>
          <Route path="/" element={<HomePage />} />
          <Route path="/pricing" element={<PricingPage />} />
          <Route path="/features" element={<FeaturesPage />} />
          <Route path="/login" element={<LoginPage />} />
          <Route path="/register" element={<RegisterPage />} />
          <Route path="/forgot-password" element={<ForgotPasswordPage />} />
          <Route path="/reset-password" element={<ResetPasswordPage />} />
          <Route path="/verify-email" element={<VerifyEmailPage />} />
          <Route path="/subscribe" element={<SubscribePage />} />
          <Route path="/success" element={<SuccessPage />} />
          <Route path="/dashboard" element={<DashboardPage />} />
          <Route path="/receipts" element={<ReceiptsPage />} />
          <Route path="/review" element={<ReviewPage />} />
          <Route path={REPORTS_PAGE_PATH} element={<ReportsPage />} />
          <Route path="/approvals" element={<ApprovalsPage />} />
          <Route path="/account" element={<AccountPage />} />
          <Route path="/billing" element={<BillingPage />} />
          <Route path="/blog" element={<BlogPage />} />
          <Route path="/blog/:slug" element={<BlogPostPage />} />
          <Route path="/about" element={<AboutPage />} />
          <Route path="/contact" element={<ContactPage />} />
          <Route path="/privacy" element={<PrivacyPage />} />
          <Route path="/admin" element={<AdminPage />} />
          <Route path="/workspace/members" element={<MembersPage />} />
          <Route path="/invite/:token" element={<InvitePage />} />
          <Route path={AUDIT_PAGE_PATH} element={<AuditPage />} />
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </main>
      <Footer />
      <Toaster />
    </div>
  );
}
