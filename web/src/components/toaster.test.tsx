import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { dismissToast, toast } from '../lib/toast.js';
import { Toaster } from './toaster.js';

describe('toaster', () => {
  afterEach(() => {
    act(() => dismissToast());
    cleanup();
  });

  it('shows one notification at a time, the newest, and closes it on dismiss', () => {
    render(<Toaster />);
    act(() => {
      toast({ title: 'First' });
      toast({ title: 'Second', description: 'More', variant: 'destructive' });
    });
    expect(screen.queryByText('First')).toBeNull();
    expect(screen.getByText('Second')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss notification' }));
    expect(screen.queryByText('Second')).toBeNull();
  });
});
