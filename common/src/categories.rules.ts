import { z } from 'zod';
import { safeText } from './control-characters.rule.js';
import { CATEGORIES } from './receipt.schema.js';

/**
 * Categories of one's own beside the spec's six (which stay, as the extraction's and the
 * defaults), and free tags on receipts. A category is named as its owner typed it; two names that
 * differ only in case are one category.
 */
export const CATEGORY_NAME_MAX = 40;
export const TAG_MAX = 30;
export const TAGS_PER_RECEIPT_MAX = 10;
export const CUSTOM_CATEGORIES_MAX = 100;

export const categoryNameSchema = safeText({ message: 'Name the category.' })
  .trim()
  .min(1, 'Name the category.')
  .max(CATEGORY_NAME_MAX, `A category name is at most ${CATEGORY_NAME_MAX} characters.`);

/** A tag: a few words of one's own; no comma, which separates tags where a file lists them in one cell. */
export const tagSchema = safeText({ message: 'A tag is text.' })
  .trim()
  .min(1, 'A tag cannot be empty.')
  .max(TAG_MAX, `A tag is at most ${TAG_MAX} characters.`)
  .refine((tag) => !tag.includes(','), 'A tag cannot contain a comma.');

/** A receipt's tags: each once (whatever its case, the first spelling kept), in the order given. */
export const tagsSchema = z
  .array(tagSchema)
  .max(TAGS_PER_RECEIPT_MAX, `At most ${TAGS_PER_RECEIPT_MAX} tags on a receipt.`)
  .transform(uniqueTags);

export function uniqueTags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  return tags.filter((tag) => {
    const key = tag.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** One of an owner's categories as the api lists it: a built-in one, or one of their own with its DATEV account. */
export const categoryViewSchema = z.object({
  name: z.string(),
  builtIn: z.boolean(),
  /** The DATEV expense account (Gegenkonto) of a category of one's own; null: the one of `other`. */
  datevAccount: z.string().nullable(),
  /** How many of the owner's receipts are in it. */
  receipts: z.number().int(),
});
export type CategoryView = z.infer<typeof categoryViewSchema>;

/** GET /api/user/categories: the built-in six, then the owner's own. */
export const categoryListSchema = z.object({ categories: z.array(categoryViewSchema) });
export type CategoryList = z.infer<typeof categoryListSchema>;

/** A DATEV account number, as the DATEV settings' accounts: 4 to 8 digits, as many as the Sachkontenlänge. */
export const datevAccountSchema = z.string().trim().regex(/^\d{4,8}$/, 'An account number is 4 to 8 digits');

/** POST /api/user/categories. */
export const categoryCreateSchema = z.object({ name: categoryNameSchema, datevAccount: datevAccountSchema.nullable().optional() }).strict();
/** PATCH /api/user/categories/:name: a new name (its receipts and rules follow), or its DATEV account. */
export const categoryUpdateSchema = z
  .object({ name: categoryNameSchema, datevAccount: datevAccountSchema.nullable() })
  .partial()
  .strict()
  .refine((update) => Object.keys(update).length > 0, 'Nothing to change');

export const isBuiltInCategory = (name: string): boolean => (CATEGORIES as readonly string[]).includes(name.toLowerCase());

/**
 * The category `name` stands for among the built-in ones and the owner's `own`, as it is spelled
 * there; undefined when it is none of them.
 */
export function findCategory(name: string, own: readonly string[]): string | undefined {
  const key = name.trim().toLowerCase();
  return [...CATEGORIES, ...own].find((category) => category.toLowerCase() === key);
}

/** Why a new name cannot be a category of this owner (taken already), or null. */
export function categoryNameTaken(name: string, own: readonly string[]): string | null {
  const taken = findCategory(name, own);
  return taken === undefined ? null : `There is a category named ${taken} already.`;
}
