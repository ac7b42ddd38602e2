import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { useFormSubmit } from './use-form-submit.js';

const schema = z.object({ email: z.email('Bad e-mail'), name: z.string().min(2, 'Too short') });

function Form({ send, failed }: { send: (data: z.infer<typeof schema>) => Promise<void>; failed: (err: unknown) => void }) {
  const { errors, pending, onSubmit } = useFormSubmit({ schema, values: (f) => ({ email: f.get('email'), name: f.get('name') }), send, failed });
  return (
    <form onSubmit={onSubmit} noValidate>
      <input aria-label="email" name="email" />
      <input aria-label="name" name="name" />
      {errors.email && <p>{errors.email}</p>}
      {errors.name && <p>{errors.name}</p>}
      <button type="submit" disabled={pending}>
        {pending ? 'Sending...' : 'Send'}
      </button>
    </form>
  );
}

const fill = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('useFormSubmit', () => {
  afterEach(cleanup);

  it('shows each field’s first message at once and sends nothing while one is wrong', () => {
    const send = vi.fn(async () => undefined);
    render(<Form send={send} failed={vi.fn()} />);
    fill('email', 'nope');
    fill('name', 'A');
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(screen.getByText('Bad e-mail')).toBeTruthy();
    expect(screen.getByText('Too short')).toBeTruthy();
    expect(send).not.toHaveBeenCalled();

    // Fixing a field clears its message on the next submit.
    fill('name', 'Ann');
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(screen.queryByText('Too short')).toBeNull();
    expect(screen.getByText('Bad e-mail')).toBeTruthy();
  });

  it('sends the parsed data, pending until it settles', async () => {
    let finish!: () => void;
    const send = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    render(<Form send={send} failed={vi.fn()} />);
    fill('email', 'a@example.com');
    fill('name', 'Ann');
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(send).toHaveBeenCalledWith({ email: 'a@example.com', name: 'Ann' });
    expect((screen.getByRole('button', { name: 'Sending...' }) as HTMLButtonElement).disabled).toBe(true);
    finish();
    await waitFor(() => expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(false));
  });

  it('hands a failure to `failed` and is ready again', async () => {
    const problem = new Error('server said no');
    const failed = vi.fn();
    render(<Form send={() => Promise.reject(problem)} failed={failed} />);
    fill('email', 'a@example.com');
    fill('name', 'Ann');
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(failed).toHaveBeenCalledWith(problem));
    await waitFor(() => expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(false));
  });
});
