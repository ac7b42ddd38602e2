import { describe, expect, it } from 'vitest';
import { categoryCreateSchema, categoryNameTaken, categoryUpdateSchema, findCategory, isBuiltInCategory, tagsSchema, uniqueTags } from './categories.rules.js';

describe('findCategory', () => {
  it.each([
    ['grocery', [], 'grocery'],
    ['Grocery', [], 'grocery'],
    [' other ', [], 'other'],
    ['office supplies', ['Office supplies'], 'Office supplies'],
    ['OFFICE SUPPLIES', ['Office supplies', 'Travel'], 'Office supplies'],
    ['toys', ['Office supplies'], undefined],
    ['', ['Office supplies'], undefined],
  ])('%j among the six and %j → %j', (name, own, expected) => {
    expect(findCategory(name, own)).toBe(expected);
  });
});

describe('categoryNameTaken', () => {
  it.each([
    ['Travel', [], null],
    ['travel', ['Travel'], 'There is a category named Travel already.'],
    ['GAS', [], 'There is a category named gas already.'],
  ])('%j with %j → %j', (name, own, expected) => {
    expect(categoryNameTaken(name, own)).toBe(expected);
  });
});

describe('isBuiltInCategory', () => {
  it.each([
    ['pharmacy', true],
    ['Pharmacy', true],
    ['Office supplies', false],
  ])('%s → %s', (name, expected) => {
    expect(isBuiltInCategory(name)).toBe(expected);
  });
});

describe('tags', () => {
  it.each([
    [['travel', 'Travel', ' client A '], ['travel', 'client A']],
    [['b', 'a', 'B'], ['b', 'a']],
    [[], []],
  ])('%j → %j (each once whatever its case, first spelling kept, trimmed)', (tags, expected) => {
    expect(tagsSchema.parse(tags)).toEqual(expected);
    expect(uniqueTags(tags.map((t) => t.trim()))).toEqual(expected);
  });

  it.each([
    [['a,b'], 'A tag cannot contain a comma.'],
    [[' '], 'A tag cannot be empty.'],
    [['x'.repeat(31)], 'A tag is at most 30 characters.'],
    [Array.from({ length: 11 }, (_, i) => `t${i}`), 'At most 10 tags on a receipt.'],
    [['new\nline'], 'Text may not contain control characters.'],
  ])('refuses %j: %s', (tags, message) => {
    const parsed = tagsSchema.safeParse(tags);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe(message);
  });
});

describe('category requests', () => {
  it('takes a name trimmed, with an optional DATEV account of 4 to 8 digits', () => {
    expect(categoryCreateSchema.parse({ name: ' Office supplies ', datevAccount: '4930' })).toEqual({ name: 'Office supplies', datevAccount: '4930' });
    expect(categoryCreateSchema.parse({ name: 'Travel' })).toEqual({ name: 'Travel' });
    expect(categoryCreateSchema.safeParse({ name: 'Travel', datevAccount: '49' }).error?.issues[0]?.message).toBe('An account number is 4 to 8 digits');
    expect(categoryCreateSchema.safeParse({ name: ' ' }).error?.issues[0]?.message).toBe('Name the category.');
    expect(categoryCreateSchema.safeParse({ name: 'x'.repeat(41) }).error?.issues[0]?.message).toBe('A category name is at most 40 characters.');
  });

  it('changes a name or an account (null: none), and wants one of them', () => {
    expect(categoryUpdateSchema.parse({ datevAccount: null })).toEqual({ datevAccount: null });
    expect(categoryUpdateSchema.parse({ name: 'Trips' })).toEqual({ name: 'Trips' });
    expect(categoryUpdateSchema.safeParse({}).success).toBe(false);
  });
});
