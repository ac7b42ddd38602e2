import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderAt } from '../test-support.js';
import { NavBar } from './nav-bar.js';

describe('navigation bar, mobile menu', () => {
  beforeEach(() => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) =>
        url === '/api/user/profile'
          ? new Response(JSON.stringify({ email: 'ann@example.test', username: 'ann', userType: 'user', emailVerified: true }), { status: 200 })
          : new Response('{}', { status: 404 }),
      ),
    );
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  const openMenu = async () => {
    renderAt(<NavBar />);
    await screen.findByRole('button', { name: 'Account menu for ann' });
    const toggle = screen.getByRole('button', { name: 'Open menu' });
    fireEvent.click(toggle);
    return { toggle, menu: document.getElementById('mobile-menu')! };
  };

  it('offers Billing to a signed-in user, as the desktop menu does', async () => {
    const { menu } = await openMenu();
    expect(within(menu).getByRole('link', { name: 'Billing' }).getAttribute('href')).toBe('/billing');
  });

  it('closes on Escape and gives the focus back to the menu button', async () => {
    const { toggle, menu } = await openMenu();
    within(menu).getByRole('link', { name: 'Account' }).focus();
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(document.getElementById('mobile-menu')).toBeNull();
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(toggle);
  });
});
