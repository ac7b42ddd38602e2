import { describe, expect, it } from 'vitest';
import { intakeAddress, intakeFilename, intakeReply, intakeToken, isReadableText, planIntake, replyAddress, tokenOfAddress, type MailAttachment, type SenderEvidence } from './intake.rules.js';

const format = { domain: 'in.receipts.test', localPrefix: '' };
const TOKEN = 'abcdefghijklmnopqrstuvwx';

describe('intakeToken', () => {
  it('spells 15 bytes as 24 lower-case base32 letters', () => {
    expect(intakeToken(new Uint8Array(15))).toBe('a'.repeat(24));
    expect(intakeToken(new Uint8Array(15).fill(255))).toBe('7'.repeat(24));
    expect(intakeToken(Uint8Array.from([0b00001000, 0b01000011, ...new Array(13).fill(0)]))).toMatch(/^bbbqa/);
  });
  it('refuses too little randomness', () => {
    expect(() => intakeToken(new Uint8Array(8))).toThrow();
  });
});

describe('intake addresses', () => {
  it.each([
    [`${TOKEN}@in.receipts.test`, format, TOKEN],
    [`${TOKEN.toUpperCase()}@IN.Receipts.test`, format, TOKEN],
    [`receipts+${TOKEN}@corp.test`, { domain: 'corp.test', localPrefix: 'receipts+' }, TOKEN],
    [`${TOKEN}@other.test`, format, null],
    [`receipts@corp.test`, { domain: 'corp.test', localPrefix: 'receipts+' }, null],
    [`${TOKEN}x@in.receipts.test`, format, null],
    [`${TOKEN.slice(1)}1@in.receipts.test`, format, null],
    ['no-at-sign', format, null],
  ])('%s → %s', (address, f, token) => {
    expect(tokenOfAddress(address, f)).toBe(token);
  });
  it('builds the address it reads back', () => {
    const f = { domain: 'Corp.test', localPrefix: 'Receipts+' };
    expect(intakeAddress(TOKEN, f)).toBe(`receipts+${TOKEN}@corp.test`);
    expect(tokenOfAddress(intakeAddress(TOKEN, f), f)).toBe(TOKEN);
  });
});

const attachment = (fields: Partial<MailAttachment> = {}): MailAttachment => ({ filename: 'a.jpg', mimeType: 'image/jpeg', size: 1000, related: false, ...fields });
const RECEIPT_BODY = 'Corner Grocery\nMilk 2.49\nBread 2.20\nTotal 4.69';

describe('planIntake', () => {
  const limits = { maxAttachments: 20 };
  it('takes one upload per attachment of an accepted type and leaves the rest out', () => {
    const plan = planIntake(
      [attachment(), attachment({ filename: 'logo.gif', mimeType: 'image/gif' }), attachment({ filename: 'b.pdf', mimeType: 'application/pdf' }), attachment({ filename: 'x.zip', mimeType: null })],
      RECEIPT_BODY,
      limits,
    );
    expect(plan).toEqual({
      parts: [
        { source: 'attachment', index: 0 },
        { source: 'attachment', index: 2 },
      ],
      refusedAttachments: [],
      ignored: [
        { filename: 'logo.gif', mimeType: 'image/gif' },
        { filename: 'x.zip', mimeType: null },
      ],
    });
  });
  it('leaves out images that belong to the HTML body and empty files', () => {
    const plan = planIntake([attachment({ related: true }), attachment({ size: 0 })], RECEIPT_BODY, limits);
    expect(plan).toMatchObject({ parts: [{ source: 'body' }] });
  });
  it('takes the body when it reads as a receipt and nothing is attached', () => {
    expect(planIntake([], RECEIPT_BODY, limits)).toMatchObject({ parts: [{ source: 'body' }] });
  });
  it.each([
    ['a cover note', 'Here is my receipt, thanks!'],
    ['no body', null],
    ['binary bytes read as text, amounts and all', `${'\u0001\u0002\ufffdxy'.repeat(50)} TOTAL 12.34 ${RECEIPT_BODY}`],
  ])('refuses a message with no receipt: %s', (_name, body) => {
    expect(planIntake([attachment({ mimeType: null })], body, limits)).toEqual({ refused: 'no-receipt' });
  });
  it('names an attachment over the upload limit instead of taking the body', () => {
    expect(planIntake([attachment({ size: 11 * 1024 * 1024 })], RECEIPT_BODY, limits)).toEqual({
      parts: [],
      refusedAttachments: [{ filename: 'a.jpg', refusal: 'attachment-too-large' }],
      ignored: [],
    });
  });
  it('refuses the whole message past the attachment limit, whatever the attachments are', () => {
    expect(planIntake(Array.from({ length: 21 }, () => attachment()), null, limits)).toEqual({ refused: 'too-many-attachments' });
    expect(planIntake(Array.from({ length: 20 }, () => attachment()), null, limits)).toMatchObject({ parts: { length: 20 } });
  });
});

describe('isReadableText', () => {
  it.each([
    ['Total 7.23\r\n\tThanks!', true],
    ['', true],
    [`${'a'.repeat(99)}\u0007`, true],
    [`${'a'.repeat(98)}\u0007\ufffd`, false],
    ['\u0000\u0001\u0002', false],
  ])('%j → %s', (text, expected) => {
    expect(isReadableText(text)).toBe(expected);
  });
});

describe('intakeFilename', () => {
  it.each([
    ['receipt.jpg', 'receipt.jpg'],
    ['../../etc/passwd', '.._.._etc_passwd'],
    ['a\u0000b\r\n.pdf', 'a_b__.pdf'],
    ['   ', 'fallback'],
    [undefined, 'fallback'],
    ['x'.repeat(300), 'x'.repeat(200)],
  ])('%j → %j', (name, expected) => {
    expect(intakeFilename(name, 'fallback')).toBe(expected);
  });
});

describe('replyAddress', () => {
  const evidence = (fields: Partial<SenderEvidence>): SenderEvidence => ({ from: 'ann@shop.test', envelopeSender: 'ann@shop.test', spf: null, dkim: [], automatic: false, ...fields });
  const shop = { domain: 'shop.test', aligned: true } as const;
  it.each<[string, Partial<SenderEvidence>, string | null]>([
    ['DKIM pass aligned with From', { dkim: [{ ...shop, status: 'pass' }] }, 'ann@shop.test'],
    ['SPF pass aligned with From', { spf: { ...shop, status: 'pass' } }, 'ann@shop.test'],
    ['one aligned DKIM pass among others', { dkim: [{ domain: 'mailer.test', status: 'pass', aligned: false }, { ...shop, status: 'pass' }] }, 'ann@shop.test'],
    ['DKIM pass of a domain not aligned', { dkim: [{ domain: 'mailer.test', status: 'pass', aligned: false }] }, null],
    ['SPF pass of a domain not aligned (evil.co.uk for someone@co.uk)', { from: 'someone@co.uk', spf: { domain: 'evil.co.uk', status: 'pass', aligned: false } }, null],
    ['DKIM fail, SPF softfail', { dkim: [{ ...shop, status: 'fail' }], spf: { ...shop, status: 'softfail' } }, null],
    ['DNS unreachable', { dkim: [{ ...shop, status: 'temperror' }], spf: { ...shop, status: 'temperror' } }, null],
    ['nothing to go by', {}, null],
    ['a bounce', { envelopeSender: '', dkim: [{ ...shop, status: 'pass' }] }, null],
    ['an automatic message', { automatic: true, dkim: [{ ...shop, status: 'pass' }] }, null],
    ['no From', { from: null, dkim: [{ ...shop, status: 'pass' }] }, null],
  ])('%s', (_name, fields, expected) => {
    expect(replyAddress(evidence(fields))).toBe(expected);
  });
});

describe('intakeReply', () => {
  it('names each refused part and what was taken', () => {
    const reply = intakeReply('March receipts', [{ part: 'c.jpg', refusal: 'over-quota' }], 2);
    expect(reply.subject).toBe('Not processed: March receipts');
    expect(reply.text).toContain('"March receipts"');
    expect(reply.text).toContain('- c.jpg: Your receipt limit is used up, so this one was not processed.');
    expect(reply.text).toContain('2 receipts are being processed');
  });
  it('speaks of the whole message when nothing was taken', () => {
    const reply = intakeReply('', [{ part: '', refusal: 'unknown-address' }], 0);
    expect(reply.subject).toBe('Not processed: your message');
    expect(reply.text).toContain('- This address does not accept receipts.');
    expect(reply.text).toContain('Nothing from it is being processed.');
  });
});
