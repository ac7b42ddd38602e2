import { describe, expect, it } from 'vitest';
import { fileTypeList, INTAKE_REFUSAL_TEXTS, sniffMimeType, USER_MESSAGES } from '@receipts/common';

const bytes = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));

describe('sniffMimeType', () => {
  it.each([
    ['\xff\xd8\xff\xe0rest', 'image/jpeg'],
    ['\x89PNG\r\n\x1a\n....', 'image/png'],
    ['RIFF\0\0\0\0WEBPVP8 ', 'image/webp'],
    ['\0\0\0\x18ftypheic\0\0', 'image/heic'],
    ['\0\0\0\x18ftypmif1\0\0', 'image/heic'],
    ['II*\0\x08\0\0\0', 'image/tiff'],
    ['MM\0*\0\0\0\x08', 'image/tiff'],
    ['II+\0\x08\0\0\0', 'image/tiff'],
    ['GIF89a\x01\0', 'image/gif'],
    ['GIF87a\x01\0', 'image/gif'],
    ['%PDF-1.7\n', 'application/pdf'],
    ['\n\n%PDF-1.4', 'application/pdf'],
  ])('recognizes %j as %s', (head, mime) => {
    expect(sniffMimeType(bytes(head))).toBe(mime);
  });

  it.each([[''], ['hello, this is text'], ['\xff\xd8'], ['\0\0\0\x18ftypisom\0\0'], ['RIFF\0\0\0\0WAVE'], ['II*'], ['MM\0\0\0\0'], ['GIF88a'], ['BM6\0\0\0']])(
    'rejects %j',
    (head) => {
      expect(sniffMimeType(bytes(head))).toBeNull();
    },
  );
});

describe('the accepted types in messages', () => {
  it('the wrong-file-type message names every accepted type, TIFF and GIF too', () => {
    expect(USER_MESSAGES.unsupportedFile).toBe('This file is not a JPG, PNG, WebP, HEIC, TIFF, GIF or PDF file.');
  });

  it('lists the intake types (no GIF) in its refusal', () => {
    expect(INTAKE_REFUSAL_TEXTS['no-receipt']).toBe('We found no receipt in the message: attach a JPG, PNG, WebP, HEIC, TIFF or PDF file, or forward the e-mail receipt itself.');
  });

  it.each([
    [['application/pdf'], 'or', 'PDF'],
    [['image/png', 'application/pdf'], 'or', 'PNG or PDF'],
    [['image/jpeg', 'image/gif', 'application/pdf'], 'and', 'JPG, GIF and PDF'],
  ] as const)('lists %j with %s as %j', (types, conjunction, text) => {
    expect(fileTypeList(types, conjunction)).toBe(text);
  });
});
