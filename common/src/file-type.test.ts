import { describe, expect, it } from 'vitest';
import { sniffMimeType } from '@receipts/common';

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
