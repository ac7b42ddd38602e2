import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ReceiptPicture } from './receipt-picture.js';

const sheet = () => document.querySelector<HTMLElement>('.picture-sheet')!;
const props = { receiptId: '00000000-0000-4000-8000-000000000001', pages: 1, lines: [], highlight: [], onPickLine: () => undefined, missing: 'No picture' };

describe('the receipt picture', () => {
  afterEach(cleanup);

  it('starts turned the way the receipt was read, and still turns by hand', () => {
    const { rerender } = render(<ReceiptPicture {...props} />);
    expect(sheet().style.transform).toContain('rotate(0deg)');
    // The reading arrives: a page read a quarter turn clockwise is shown so.
    rerender(<ReceiptPicture {...props} turn={90} />);
    expect(sheet().style.transform).toContain('rotate(90deg)');
    fireEvent.click(screen.getByRole('button', { name: 'Rotate a quarter turn' }));
    expect(sheet().style.transform).toContain('rotate(180deg)');
  });

  it('keeps the picture’s place while the pages are asked for', () => {
    render(<ReceiptPicture {...props} pages={0} pending missing="Loading the picture..." />);
    expect(screen.getByTestId('receipt-picture').className).toContain('picture-pending');
    expect(screen.getByTestId('receipt-picture').getAttribute('aria-busy')).toBe('true');
  });
});
