import { randomUUID } from 'node:crypto';
import { receiptListQuerySchema, receiptPatchSchema } from '@receipts/common';
import { CategoryRepository, MerchantRuleRepository, ReceiptRepository, UserRepository, WorkspaceRepository } from '@receipts/infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonymousOwner, extracted, openUploadStack, pngFile, type UploadStack } from '../../../tests/support/upload-stack.js';
import { HttpError } from '../http-error.js';
import { ReceiptLibraryService } from '../library/receipt-library.service.js';
import { MerchantRuleService } from '../rules/merchant-rule.service.js';
import type { Owner } from '../session.js';
import { UploadService } from '../uploads/upload.service.js';
import { CategoryService } from './category.service.js';

// Real PostgreSQL, Redis and BullMQ; receipts are stored as a worker would store them.
describe('categories of one’s own and tags', () => {
  let stack: UploadStack;
  let categories: CategoryService;
  let library: ReceiptLibraryService;
  let rules: MerchantRuleRepository;
  let users: UserRepository;

  beforeAll(async () => {
    stack = await openUploadStack();
    users = new UserRepository(stack.database.db);
    rules = new MerchantRuleRepository(stack.database.db);
    categories = new CategoryService(new CategoryRepository(stack.database.db), new WorkspaceRepository(stack.database.db));
    library = new ReceiptLibraryService(new ReceiptRepository(stack.database.db), stack.duplicates, new UploadService(stack), stack.files, rules, categories, stack.webhooks, stack.log);
  }, 120_000);

  afterAll(async () => {
    await stack?.close();
  });

  /** The owner acting in its own workspace. */
  const acting = (owner: Owner) => ({ workspaceId: owner.userId!, actorId: owner.userId });

  async function user(): Promise<Owner> {
    const row = (await users.insert({ email: `categories-${randomUUID()}@example.test`, username: 'c', passwordHash: 'x' }))!;
    return { userId: row.id, anonId: null, clientIp: null };
  }

  async function stored(owner: Owner, fields = {}): Promise<string> {
    const service = new UploadService(stack);
    const { id } = await service.create(owner, pngFile());
    await service.stored(id);
    await stack.uploads.claim(id);
    return (await stack.uploads.complete(id, extracted({ merchantName: 'Corner Shop', date: '2024-05-01', total: 10, ...fields })))!.id;
  }

  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (err: unknown) => (err instanceof HttpError ? { status: err.status, code: err.code, message: err.message } : err),
    );
  const list = (owner: Owner, query: Record<string, string>) => library.list(owner, receiptListQuerySchema.parse(query));

  it('lists the six built in and the user’s own after them, each with its receipts', async () => {
    const owner = await user();
    await stored(owner, { category: 'grocery' });
    expect(await categories.add(acting(owner), 'Office supplies', '4930')).toEqual({ name: 'Office supplies', builtIn: false, datevAccount: '4930', receipts: 0 });
    const listed = await categories.list(owner.userId!);
    expect(listed.map((c) => [c.name, c.builtIn, c.receipts])).toEqual([
      ['grocery', true, 1],
      ['restaurant', true, 0],
      ['gas', true, 0],
      ['retail', true, 0],
      ['pharmacy', true, 0],
      ['other', true, 0],
      ['Office supplies', false, 0],
    ]);
  });

  it('refuses a name taken whatever its case, a built-in one changed, and an account of the wrong length', async () => {
    const owner = await user();
    await categories.add(acting(owner), 'Travel', null);
    expect(await refusal(categories.add(acting(owner), 'TRAVEL', null))).toEqual({ status: 409, code: 'CONFLICT', message: 'There is a category named Travel already.' });
    expect(await refusal(categories.add(acting(owner), 'Gas', null))).toMatchObject({ status: 409, message: 'There is a category named gas already.' });
    expect(await refusal(categories.remove(acting(owner), 'grocery'))).toMatchObject({ status: 400, message: 'The built-in categories cannot be renamed or deleted.' });
    expect(await refusal(categories.update(acting(owner), 'Nope', { name: 'Yes' }))).toMatchObject({ status: 404 });
    // The default settings' accounts have 4 digits.
    expect(await refusal(categories.add(acting(owner), 'Tools', '49300'))).toMatchObject({ status: 400, message: 'Every account must have 4 digits (the Sachkontenlänge)' });
    // Another user's names are theirs.
    expect((await categories.add(acting(await user()), 'Travel', null)).name).toBe('Travel');
  });

  it('files a receipt under one’s own category and tags it; both filter the library; the merchant’s next receipts follow', async () => {
    const owner = await user();
    await categories.add(acting(owner), 'Office supplies', null);
    const id = await stored(owner, { merchantName: 'Paper World', merchantRead: 'Paper World', category: 'retail' });
    await stored(owner, { merchantName: 'Elsewhere', category: 'retail' });

    // The category as typed in another case is the owner's, spelled as they named it; tags each once (as the route's validation gives them).
    const corrected = await library.correct(owner, id, receiptPatchSchema.parse({ category: 'office SUPPLIES', tags: ['client A', 'Client a', 'travel'] }));
    expect(corrected).toMatchObject({ category: 'Office supplies', tags: ['client A', 'travel'] });
    expect(corrected.edits[0]!.changes).toMatchObject({ category: { from: 'retail', to: 'Office supplies' }, tags: { from: [], to: ['client A', 'travel'] } });

    expect((await list(owner, { category: 'office supplies' })).items.map((r) => r.id)).toEqual([id]);
    expect((await list(owner, { tag: 'CLIENT A' })).items.map((r) => r.id)).toEqual([id]);
    expect((await list(owner, { tag: 'client' })).items).toEqual([]);

    expect((await rules.forWorkspace(owner.userId!)).map(({ kind, value }) => [kind, value])).toEqual(
      expect.arrayContaining([
        ['category', 'Office supplies'],
        ['tags', 'client A, travel'],
      ]),
    );

    // The account page edits those rules: a category as the owner spells it, tags each once.
    const ruleService = new MerchantRuleService(rules, categories);
    const learned = await ruleService.list(owner.userId!);
    const [categoryRule, tagRule] = [learned.find((r) => r.kind === 'category')!, learned.find((r) => r.kind === 'tags')!];
    expect((await ruleService.update(acting(owner), categoryRule.id, 'OFFICE supplies')).value).toBe('Office supplies');
    expect(await refusal(ruleService.update(acting(owner), categoryRule.id, 'Toys'))).toMatchObject({ status: 400 });
    expect((await ruleService.update(acting(owner), tagRule.id, ' car ,Car, travel ')).value).toBe('car, travel');
    expect(await refusal(ruleService.update(acting(owner), tagRule.id, ' , '))).toMatchObject({ status: 400, message: 'List the tags, separated by commas.' });
    expect(await refusal(ruleService.update(acting(owner), tagRule.id, 'a'.repeat(31)))).toMatchObject({ status: 400, message: 'A tag is at most 30 characters.' });

    // A category nobody made is refused, naming the choices.
    expect(await refusal(library.correct(owner, id, { category: 'Toys' }))).toMatchObject({
      status: 400,
      message: 'A category is one of grocery, restaurant, gas, retail, pharmacy, other, Office supplies.',
    });
    // An anonymous visitor has the six.
    const visitor = anonymousOwner();
    const theirs = await stored(visitor);
    expect(await refusal(library.correct(visitor, theirs, { category: 'Office supplies' }))).toMatchObject({ status: 400 });
    expect((await library.correct(visitor, theirs, { category: 'Gas', tags: ['car'] })).category).toBe('gas');
  });

  it('renames a category with its receipts and rules, and deletes one into other, forgetting its rules', async () => {
    const owner = await user();
    await categories.add(acting(owner), 'Travel', null);
    const id = await stored(owner, { merchantName: 'Rail Co', category: 'other' });
    await library.correct(owner, id, { category: 'Travel' });

    const renamed = await categories.update(acting(owner), 'travel', { name: 'Trips', datevAccount: '4670' });
    expect(renamed).toEqual({ name: 'Trips', builtIn: false, datevAccount: '4670', receipts: 1 });
    expect((await library.get(owner, id)).category).toBe('Trips');
    expect((await rules.forWorkspace(owner.userId!)).filter((r) => r.kind === 'category').map((r) => r.value)).toEqual(['Trips']);
    // Another user's receipt filed under a category of the same name stays where it is.
    const other = await user();
    await categories.add(acting(other), 'Trips', null);
    const theirs = await stored(other, { category: 'other' });
    await library.correct(other, theirs, { category: 'Trips' });

    await categories.remove(acting(owner), 'Trips');
    expect((await library.get(owner, id)).category).toBe('other');
    expect((await rules.forWorkspace(owner.userId!)).filter((r) => r.kind === 'category')).toEqual([]);
    expect((await categories.list(owner.userId!)).map((c) => c.name)).not.toContain('Trips');
    expect((await library.get(other, theirs)).category).toBe('Trips');
  });
});
