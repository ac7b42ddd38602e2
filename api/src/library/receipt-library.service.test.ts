import { randomUUID } from 'node:crypto';
import { issueFlag, receiptListQuerySchema } from '@receipts/common';
import { CategoryRepository, MerchantRuleRepository, ReceiptRepository, toReceiptView, UserRepository, WorkspaceRepository } from '@receipts/infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonymousOwner as visitor, extracted, openUploadStack, pngFile as png, type UploadStack } from '../../../tests/support/upload-stack.js';
import { CategoryService } from '../categories/category.service.js';
import { HttpError } from '../http-error.js';
import type { Owner } from '../session.js';
import { UploadService } from '../uploads/upload.service.js';
import { ReceiptLibraryService } from './receipt-library.service.js';

// Real PostgreSQL, Redis and BullMQ; receipts are stored as a worker would store them.
describe('receipt library service', () => {
  let stack: UploadStack;
  let library: ReceiptLibraryService;
  let rules: MerchantRuleRepository;

  beforeAll(async () => {
    stack = await openUploadStack();
    rules = new MerchantRuleRepository(stack.database.db);
    const categories = new CategoryService(new CategoryRepository(stack.database.db), new WorkspaceRepository(stack.database.db));
    library = new ReceiptLibraryService(new ReceiptRepository(stack.database.db), stack.duplicates, new UploadService(stack), stack.files, rules, categories, stack.webhooks, stack.log);
  }, 120_000);

  afterAll(async () => {
    await stack?.close();
  });

  /** A completed upload of the owner with its receipt; the receipt's id. */
  async function stored(owner: Owner, fields = {}): Promise<string> {
    const service = new UploadService(stack);
    const { id } = await service.create(owner, png());
    await service.stored(id);
    await stack.uploads.claim(id);
    return (await stack.uploads.complete(id, extracted({ merchantName: 'Corner Shop', date: '2024-05-01', ...fields })))!.id;
  }

  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (err: unknown) => (err instanceof HttpError ? { status: err.status, code: err.code } : err),
    );
  const list = (owner: Owner, query: Record<string, string> = {}) => library.list(owner, receiptListQuerySchema.parse(query));

  it('corrects a receipt: validated again, the change recorded, the duplicate flag following the new total', async () => {
    const owner = visitor();
    const first = await stored(owner, { total: 10 });
    const second = await stored(owner, { total: 12 });
    expect((await library.get(owner, second)).duplicateOf).toBeUndefined();

    const corrected = await library.correct(owner, second, { total: 10 });
    expect(corrected).toMatchObject({ total: 10, edited: true });
    expect(corrected.edits).toEqual([expect.objectContaining({ kind: 'correction', changes: { total: { from: 12, to: 10 } } })]);
    expect(corrected.duplicateOf).toMatchObject({ reason: 'same-receipt' });
    expect((await library.get(owner, first)).duplicateOf).toBeUndefined();

    // The same values again change nothing and record nothing.
    expect((await library.correct(owner, second, { total: 10 })).edits).toHaveLength(1);
    const invalid = await library.correct(owner, second, { date: '2999-01-01' });
    expect(invalid.valid).toBe(false);
    expect(invalid.issues.length).toBeGreaterThan(0);
  });

  it('refuses a correction while the receipt is being extracted again', async () => {
    const owner = visitor();
    const id = await stored(owner);
    await library.reextract(owner, id);
    expect(await refusal(library.correct(owner, id, { total: 99 }))).toEqual({ status: 409, code: 'CONFLICT' });
    expect((await library.get(owner, id)).total).toBe(3);
  });

  it('shows an owner only their own receipts, filtered and counted', async () => {
    const owner = visitor();
    await stored(owner, { merchantName: 'Bakery Blum', total: 4, currency: 'EUR' });
    await stored(owner, { merchantName: 'Hardware Haus', total: 40, category: 'retail', currency: 'GBP' });
    const other = visitor();
    const theirs = await stored(other, { currency: 'MDL' });
    expect((await list(owner)).total).toBe(2);
    expect((await list(owner, { q: 'bakery' })).items.map((r) => r.merchantName)).toEqual(['Bakery Blum']);
    expect((await list(owner, { category: 'retail' })).items.map((r) => r.total)).toEqual([40]);
    // The currency filter's choices are the owner's currencies, whatever else is filtered.
    const pounds = await list(owner, { currency: 'gbp' });
    expect(pounds.items.map((r) => r.merchantName)).toEqual(['Hardware Haus']);
    expect(pounds.currencies).toEqual(['EUR', 'GBP']);
    expect(await refusal(library.get(owner, theirs))).toEqual({ status: 404, code: 'NOT_FOUND' });
    expect(await refusal(library.correct(owner, theirs, { total: 1 }))).toEqual({ status: 404, code: 'NOT_FOUND' });
  });

  it('accepts one kind of flag on every receipt that needs review for it, and only that kind', async () => {
    const owner = { userId: null, anonId: visitor().anonId, clientIp: null };
    const OLD = 'Date out of reasonable range';
    const oldOnly = await stored(owner, { date: '2019-05-01', issues: [issueFlag('dateOutOfRange')], valid: false });
    const oldAndMismatch = await stored(owner, { date: '2019-05-02', issues: [issueFlag('dateOutOfRange'), issueFlag('totalMismatch', { total: '12.00', calculated: '11.00' })], valid: false });
    const mismatchOnly = await stored(owner, { issues: [issueFlag('totalMismatch', { total: '3.50', calculated: '3.40' })], valid: false });
    const acceptedAlready = await stored(owner, { date: '2019-05-03', issues: [issueFlag('dateOutOfRange')], valid: false });
    await library.acceptIssue(owner, acceptedAlready, OLD);
    const stranger = visitor();
    const theirs = await stored(stranger, { date: '2019-05-04', issues: [issueFlag('dateOutOfRange')], valid: false });

    expect(await library.acceptFlagKind(owner, OLD)).toEqual({ receipts: 2 });
    expect(await library.get(owner, oldOnly)).toMatchObject({ valid: true, acceptedIssues: [{ issue: OLD, userId: null }] });
    // Its other flag still needs a person.
    expect(await library.get(owner, oldAndMismatch)).toMatchObject({ valid: false, acceptedIssues: [{ issue: OLD }] });
    expect(await library.get(owner, mismatchOnly)).toMatchObject({ valid: false, acceptedIssues: [] });
    // Another visitor's receipt is theirs to accept.
    expect((await library.get(stranger, theirs)).valid).toBe(false);

    // A mismatch is one kind whatever its amounts.
    expect(await library.acceptFlagKind(owner, 'Total mismatch: {total} vs calculated {calculated}')).toEqual({ receipts: 2 });
    expect((await library.get(owner, oldAndMismatch)).valid).toBe(true);
    expect((await library.get(owner, mismatchOnly)).valid).toBe(true);
    expect(await library.acceptFlagKind(owner, OLD)).toEqual({ receipts: 0 });
  });

  it('deletes a receipt with its upload and original', async () => {
    const owner = visitor();
    const id = await stored(owner);
    const { uploadId } = await library.get(owner, id);
    await library.remove(owner, id);
    expect(await refusal(library.get(owner, id))).toEqual({ status: 404, code: 'NOT_FOUND' });
    await expect(stack.files.read(uploadId)).rejects.toThrow();
  });

  it('accepts a flag after looking: recorded with who and when, the receipt valid; a correction keeps it while the flag stays', async () => {
    const owner = { userId: null, anonId: visitor().anonId, clientIp: null };
    const OLD = 'Date out of reasonable range';
    const id = await stored(owner, { date: '2019-05-01', issues: [issueFlag('dateOutOfRange')], valid: false });
    expect(await refusal(library.acceptIssue(owner, id, 'Invalid date format'))).toEqual({ status: 400, code: 'VALIDATION_FAILED' });

    const accepted = await library.acceptIssue(owner, id, OLD);
    expect(accepted.valid).toBe(true);
    expect(accepted.acceptedIssues).toEqual([{ issue: OLD, userId: null, at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/) }]);
    // Accepting is no correction of the receipt.
    expect(accepted.edited).toBe(false);
    expect((await list(owner, { valid: 'true' })).items.map((r) => r.id)).toEqual([id]);

    // Another old date: the same flag, still accepted. A mismatch is a new flag to look at.
    expect((await library.correct(owner, id, { date: '2019-06-01' })).valid).toBe(true);
    const mismatched = await library.correct(owner, id, { subtotal: 10, tax: 1, total: 12 });
    expect(mismatched.valid).toBe(false);
    expect(mismatched.acceptedIssues).toHaveLength(1);
    // A date in range drops the acceptance of a flag the receipt no longer carries.
    const fixed = await library.correct(owner, id, { date: new Date().toISOString().slice(0, 10), total: 11 });
    expect(fixed).toMatchObject({ issues: [], acceptedIssues: [], valid: true });
  });

  it('takes an acceptance back, and a re-extraction keeps acceptances of flags the new reading still raises', async () => {
    const owner = visitor();
    const OLD = 'Date out of reasonable range';
    const id = await stored(owner, { date: '2019-05-01', issues: [issueFlag('dateOutOfRange')], valid: false, quality: 0.4 });
    await library.acceptIssue(owner, id, OLD);
    expect((await library.acceptIssue(owner, id, 'Quality below 60%')).valid).toBe(true);
    expect((await library.reopenIssue(owner, id, 'Quality below 60%')).valid).toBe(false);
    const { uploadId } = await library.get(owner, id);
    await library.reextract(owner, id);
    await stack.uploads.claim(uploadId);
    const again = await stack.uploads.complete(uploadId, extracted({ date: '2019-05-01', issues: [issueFlag('dateOutOfRange')], valid: false }));
    // As the api shows it: the stored acceptance is a flag, rendered at the view.
    expect(toReceiptView(again!)).toMatchObject({ valid: true, acceptedIssues: [expect.objectContaining({ issue: OLD })] });
  });

  it('shows the pages the worker kept, the original when a browser shows it, and nothing of another owner', async () => {
    const owner = visitor();
    const id = await stored(owner);
    const { uploadId } = await library.get(owner, id);
    // A PNG original without kept pictures is shown as it is.
    expect((await library.get(owner, id)).pages).toBe(1);
    expect((await library.page(owner, id, 0)).contentType).toBe('image/png');
    expect(await refusal(library.page(owner, id, 1))).toEqual({ status: 404, code: 'NOT_FOUND' });
    await stack.files.putPages(uploadId, [Buffer.from('page one'), Buffer.from('page two')]);
    expect((await library.get(owner, id)).pages).toBe(2);
    expect(await library.page(owner, id, 1)).toEqual({ bytes: Buffer.from('page two'), contentType: 'image/jpeg' });
    expect(await refusal(library.page(visitor(), id, 0))).toEqual({ status: 404, code: 'NOT_FOUND' });
    await library.remove(owner, id);
    expect(await stack.files.pageCount(uploadId)).toBe(0);
  });

  it("turns a signed-in owner's corrections into rules keyed on what was read, and an anonymous visitor's into none", async () => {
    const user = (await new UserRepository(stack.database.db).insert({ email: `rules-${randomUUID()}@example.test`, username: 'r', passwordHash: 'x' }))!;
    const owner = { userId: user.id, anonId: null, clientIp: null };
    const id = await stored(owner, { merchantName: 'SUNRlSE BAKERIES (KL)', merchantRead: 'SUNRlSE BAKERIES (KL)', category: 'other' });
    await library.correct(owner, id, { merchantName: 'Sunrise', category: 'grocery' });
    expect((await rules.forWorkspace(user.id)).map(({ kind, match, value }) => ({ kind, match, value }))).toEqual(
      expect.arrayContaining([
        { kind: 'merchant', match: 'SUNRlSE BAKERIES (KL)', value: 'Sunrise' },
        { kind: 'category', match: 'Sunrise', value: 'grocery' },
      ]),
    );
    // Renamed by a rule, then corrected again: the rule of what was read changes, no chain of rules.
    const renamed = await stored(owner, { merchantName: 'Sunrise', merchantRead: 'SUNRlSE BAKERIES (KL)' });
    await library.correct(owner, renamed, { merchantName: 'Sunrise Bakeries' });
    expect((await rules.forWorkspace(user.id)).filter((r) => r.kind === 'merchant').map((r) => [r.match, r.value])).toEqual([['SUNRlSE BAKERIES (KL)', 'Sunrise Bakeries']]);

    // An anonymous visitor has no account to keep rules in: the correction is saved all the same.
    const visitorOwner = visitor();
    const theirs = await stored(visitorOwner, { merchantName: 'Corner Shop' });
    expect((await library.correct(visitorOwner, theirs, { merchantName: 'The Corner Shop' })).merchantName).toBe('The Corner Shop');
  });
});
