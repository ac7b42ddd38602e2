import { describe, expect, it } from 'vitest';
import { ApiError } from './api.js';
import { FLAG_KINDS, issueFlag, MAX_UPLOAD_BYTES, USER_MESSAGES, type IssueFlag } from '@receipts/common';
import { issuesByField, precheckFile, uploadErrorMessage } from './upload-rules.js';

const apiError = (status: number, body: string) => new ApiError(status, body, 'Status Text');

describe('upload error text (spec §8)', () => {
  it.each([
    [apiError(429, JSON.stringify({ error: 'QUOTA_EXCEEDED', message: 'anything' })), true, 'Exceed daily limit of 5 receipts. Please upgrade to premium'],
    [apiError(429, JSON.stringify({ error: 'QUOTA_EXCEEDED', message: 'anything' })), false, 'Daily limit of 5 receipts exceeded. Sign up for more!'],
    [apiError(415, JSON.stringify({ error: 'UNSUPPORTED_FILE_TYPE', message: 'This file is not a JPG, PNG, WebP, HEIC or PDF file.' })), false, 'This file is not a JPG, PNG, WebP, HEIC or PDF file.'],
    [apiError(502, 'Bad gateway from proxy'), false, 'Bad gateway from proxy'],
    [apiError(500, ''), false, 'HTTP 500'],
    [new TypeError('Failed to fetch'), false, 'Upload failed'],
    ['???', false, 'Upload failed'],
  ])('%o (signed in %s) → %s', (err, signedIn, text) => {
    expect(uploadErrorMessage(err, signedIn)).toBe(text);
  });

  it('gives the spec’s "status: body" as the error message', () => {
    expect(apiError(404, 'nope').message).toBe('404: nope');
    expect(apiError(404, '').message).toBe('404: Status Text');
  });
});

describe('issues beside their fields', () => {
  it.each<[IssueFlag, string[]]>([
    [issueFlag('totalMismatch', { total: '10.00', calculated: '12.00' }), ['total', 'subtotal', 'tax']],
    [issueFlag('suspiciousTaxRate', { rate: '60' }), ['tax']],
    [issueFlag('invalidDate'), ['date']],
    [issueFlag('dateOutOfRange'), ['date']],
    [issueFlag('nonPositiveTotal'), ['total']],
    [issueFlag('largeTotal'), ['total']],
    [issueFlag('legacy', { text: 'Something new' }), []],
  ])('%j → %j', (flag, fields) => {
    expect(FLAG_KINDS[flag.code].fields).toEqual(fields);
  });

  it('groups issues by the first field and keeps the rest general', () => {
    const grouped = issuesByField([issueFlag('totalMismatch', { total: '1.00', calculated: '2.00' }), issueFlag('invalidDate'), issueFlag('missingKeyFields'), issueFlag('legacy', { text: 'Other' })]);
    expect(grouped.byField).toEqual({ total: ['Total mismatch: 1.00 vs calculated 2.00'], date: ['Invalid date format'] });
    expect(grouped.general).toEqual(['Missing all key fields (merchant, total, and date)', 'Other']);
  });
});

describe('a chosen file checked in the page, before a byte is sent', () => {
  it.each([
    [13 * 1024 * 1024, USER_MESSAGES.fileTooLarge],
    [MAX_UPLOAD_BYTES + 1, USER_MESSAGES.fileTooLarge],
    [MAX_UPLOAD_BYTES, null],
    [1, null],
    [0, USER_MESSAGES.fileEmpty],
  ])('%d bytes → %s', (size, message) => {
    expect(precheckFile({ size })).toBe(message);
  });
});
