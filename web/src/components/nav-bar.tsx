import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useEffect, useRef, useState } from 'react';
import { Link, NavLink } from 'react-router-dom';
import { useLogout, useProfile } from '../hooks/use-account.js';
import { useWorkspaceAllows } from '../hooks/use-current-workspace.js';
import { AUDIT_PAGE_PATH } from '../lib/audit-api.js';
import { REPORTS_PAGE_PATH } from '../lib/workspace-plan-api.js';
import { NAV_LINKS, PRODUCT_NAME } from '../lib/site.js';
import { ApprovalsLink } from './approvals-link.js';
import { NotificationsMenu } from './notifications-menu.js';
import { ReviewLink } from './review-link.js';
import { WorkspaceSwitcher } from './workspace-switcher.js';
import './nav-bar.css';

function initials(name: string): string {
  return name.trim().slice(0, 2).toUpperCase() || '?';
}

export function NavBar() {
  const { profile, loading } = useProfile();
  const { logout, pending } = useLogout();
  const [open, setOpen] = useState(false);
  const isAdmin = profile?.userType === 'admin';
  const readsAudit = useWorkspaceAllows('audit:read');
  const readsReports = useWorkspaceAllows('reports:read');
  const close = () => setOpen(false);
  const toggle = useRef<HTMLButtonElement>(null);

  // Escape closes the open menu and gives focus back to its button, as the desktop menu does.
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setOpen(false);
      toggle.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);

  return (
    <header className="navbar">
      <nav className="container navbar-inner" aria-label="Main">
        <Link to="/" className="brand" onClick={close}>
          <span className="brand-mark" aria-hidden="true">
            R
          </span>
          {PRODUCT_NAME}
        </Link>
        <ul className="nav-links">
          {NAV_LINKS.map((l) => (
            <li key={l.to}>
              <NavLink to={l.to} end={l.to === '/'}>
                {l.label}
              </NavLink>
            </li>
          ))}
        </ul>
        <div className="nav-account">
          {loading ? (
            <span className="avatar avatar-loading" aria-label="Loading account" role="status" />
          ) : profile ? (
            <>
              <WorkspaceSwitcher />
              <ReviewLink className="nav-review" />
              <ApprovalsLink className="nav-review nav-approvals" />
              <NotificationsMenu />
              <DropdownMenu.Root>
                <DropdownMenu.Trigger className="user-trigger" aria-label={`Account menu for ${profile.username}`}>
                  <span className="avatar" aria-hidden="true">
                    {initials(profile.username)}
                  </span>
                  <span className="user-name">{profile.username}</span>
                </DropdownMenu.Trigger>
                <DropdownMenu.Portal>
                  <DropdownMenu.Content className="menu" align="end" sideOffset={6}>
                    <DropdownMenu.Label className="menu-label">
                      <strong>{profile.username}</strong>
                      <span>{profile.email}</span>
                    </DropdownMenu.Label>
                    <DropdownMenu.Separator className="menu-separator" />
                    <DropdownMenu.Item asChild className="menu-item">
                      <Link to="/dashboard">Dashboard</Link>
                    </DropdownMenu.Item>
                    <DropdownMenu.Item asChild className="menu-item">
                      <Link to="/receipts">My Receipts</Link>
                    </DropdownMenu.Item>
                    <DropdownMenu.Item asChild className="menu-item">
                      <Link to="/account">Account</Link>
                    </DropdownMenu.Item>
                    <DropdownMenu.Item asChild className="menu-item">
                      <Link to="/billing">Billing</Link>
                    </DropdownMenu.Item>
                    {readsReports && (
                      <DropdownMenu.Item asChild className="menu-item">
                        <Link to={REPORTS_PAGE_PATH}>Spending reports</Link>
                      </DropdownMenu.Item>
                    )}
                    {readsAudit && (
                      <DropdownMenu.Item asChild className="menu-item">
                        <Link to={AUDIT_PAGE_PATH}>Audit trail</Link>
                      </DropdownMenu.Item>
                    )}
                    {isAdmin && (
                      <DropdownMenu.Item asChild className="menu-item">
                        <Link to="/admin">Admin Panel</Link>
                      </DropdownMenu.Item>
                    )}
                    <DropdownMenu.Separator className="menu-separator" />
                    <DropdownMenu.Item
                      className="menu-item"
                      disabled={pending}
                      onSelect={(e) => {
                        e.preventDefault();
                        void logout();
                      }}
                    >
                      {pending ? 'Signing out...' : 'Sign out'}
                    </DropdownMenu.Item>
                  </DropdownMenu.Content>
                </DropdownMenu.Portal>
              </DropdownMenu.Root>
            </>
          ) : (
            <div className="nav-auth">
              <Link to="/login" className="btn btn-ghost">
                Sign in
              </Link>
              <Link to="/register" className="btn btn-primary">
                Get Started
              </Link>
            </div>
          )}
          <button
            ref={toggle}
            type="button"
            className="menu-toggle"
            aria-expanded={open}
            aria-controls="mobile-menu"
            aria-label={open ? 'Close menu' : 'Open menu'}
            onClick={() => setOpen((o) => !o)}
          >
            <span aria-hidden="true">{open ? '✕' : '☰'}</span>
          </button>
        </div>
      </nav>
      {open && (
        <div id="mobile-menu" className="mobile-menu">
          <ul>
            {NAV_LINKS.map((l) => (
              <li key={l.to}>
                <NavLink to={l.to} end={l.to === '/'} onClick={close}>
                  {l.label}
                </NavLink>
              </li>
            ))}
          </ul>
          {profile ? (
            <div className="mobile-account">
              <p>
                <strong>{profile.username}</strong>
                <br />
                <span className="muted">{profile.email}</span>
              </p>
              <Link to="/dashboard" onClick={close}>
                Dashboard
              </Link>
              <Link to="/receipts" onClick={close}>
                My Receipts
              </Link>
              <ReviewLink onClick={close} />
              <ApprovalsLink onClick={close} />
              <Link to="/account" onClick={close}>
                Account
              </Link>
              <Link to="/billing" onClick={close}>
                Billing
              </Link>
              {readsReports && (
                <Link to={REPORTS_PAGE_PATH} onClick={close}>
                  Spending reports
                </Link>
              )}
              {readsAudit && (
                <Link to={AUDIT_PAGE_PATH} onClick={close}>
                  Audit trail
                </Link>
              )}
              {isAdmin && (
                <Link to="/admin" onClick={close}>
                  Admin Panel
                </Link>
              )}
              <button type="button" className="btn btn-outline" disabled={pending} onClick={() => void logout()}>
                {pending ? 'Signing out...' : 'Sign out'}
              </button>
            </div>
          ) : (
            <div className="mobile-account">
              <Link to="/login" className="btn btn-outline" onClick={close}>
                Sign in
              </Link>
              <Link to="/register" className="btn btn-primary" onClick={close}>
                Get Started
              </Link>
            </div>
          )}
        </div>
      )}
    </header>
  );
}
