import { describe, expect, it } from 'vitest';
import { fileNamePart, originalFileName, uniqueNames } from './pack-names.rule.js';

const original = (over: Partial<Parameters<typeof originalFileName>[0]> = {}) => ({
  date: '2024-03-05',
  merchantName: 'Corner Pantry',
  total: 12.5,
  currency: 'GBP',
  mimeType: 'image/jpeg',
  ...over,
});

describe('originalFileName', () => {
  it.each([
    [{}, '2024-03-05_Corner-Pantry_12.50.jpg'],
    [{ currency: 'JPY', total: 1280, mimeType: 'application/pdf' }, '2024-03-05_Corner-Pantry_1280.pdf'],
    [{ date: null, merchantName: null, total: null }, 'undated_unknown_no-total.jpg'],
    [{ date: '2023-02-30' }, 'undated_Corner-Pantry_12.50.jpg'],
    [{ mimeType: 'text/html' }, '2024-03-05_Corner-Pantry_12.50.bin'],
    // No way out of the folder, nothing a file system refuses.
    [{ merchantName: '../../etc/passwd' }, '2024-03-05_etc-passwd_12.50.jpg'],
    [{ merchantName: 'A/B\\C:D*E?F"G<H>I|J' }, '2024-03-05_A-B-C-D-E-F-G-H-I-J_12.50.jpg'],
    [{ merchantName: 'line\nbreak\u0000 and\ttab' }, '2024-03-05_line-break-and-tab_12.50.jpg'],
    [{ merchantName: '...' }, '2024-03-05_unknown_12.50.jpg'],
    [{ merchantName: 'LA PEÑA DEL MAR' }, '2024-03-05_LA-PEÑA-DEL-MAR_12.50.jpg'],
    [{ merchantName: 'マルヤマ ストア' }, '2024-03-05_マルヤマ-ストア_12.50.jpg'],
  ])('%j → %s', (over, name) => {
    expect(originalFileName(original(over))).toBe(name);
  });

  it('cuts a long merchant at a whole character, never half of an emoji', () => {
    const part = fileNamePart('😀'.repeat(100), 'x');
    expect([...part]).toHaveLength(60);
    expect(part).toBe('😀'.repeat(60));
  });

  it('writes decomposed accents composed (NFC)', () => {
    expect(fileNamePart('Cafe\u0301', 'x')).toBe('Café');
  });
});

describe('uniqueNames', () => {
  it('numbers a name already given, ignoring case', () => {
    const unique = uniqueNames();
    expect(['a_1.jpg', 'a_1.jpg', 'A_1.JPG', 'a_1.jpg', 'a_1_2.jpg'].map(unique)).toEqual(['a_1.jpg', 'a_1_2.jpg', 'A_1_3.JPG', 'a_1_4.jpg', 'a_1_2_2.jpg']);
  });
});
