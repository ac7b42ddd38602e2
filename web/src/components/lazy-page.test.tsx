import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lazyPage } from './lazy-page.js';

describe('lazily loaded pages (spec §2)', () => {
  afterEach(cleanup);

  it('shows the page once its code has loaded', async () => {
    const Page = lazyPage('blog', async () => ({ default: () => <h1>Blog</h1> }));
    render(<Page />);
    expect(screen.getByText('Loading blog...')).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Blog' })).toBeTruthy();
  });

  it('shows "Error loading {page}" and the error when its code fails to load', async () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const Page = lazyPage('billing', () => Promise.reject(new Error('Failed to fetch dynamically imported module')));
    render(<Page />);
    expect(await screen.findByRole('heading', { name: 'Error loading billing' })).toBeTruthy();
    expect(screen.getByText('Failed to fetch dynamically imported module')).toBeTruthy();
    quiet.mockRestore();
  });
});
