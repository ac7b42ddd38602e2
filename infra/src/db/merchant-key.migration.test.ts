import { merchantKey } from '@receipts/common';
import { describe, expect, it } from 'vitest';
import { databaseAtMigration } from '../../../tests/support/migrations.js';

/** Merchant names as receipts stored them: spellings, legal forms, OCR slips and accents. */
const NAMES = [
  'Sunrise Bakery',
  'SUNRISE BAKERY.',
  'MR. K.L.Y. (M) SDN BHD',
  'MR.KLY (M)',
  '5HELL',
  'Shell',
  'Müller GmbH',
  'Café de Flore',
  'Ltd',
  'Co Sdn Bhd',
  'Acme Co. Ltd.',
  'Cosmetics Co',
  'Shop 10',
  '  ',
  '...',
];

// Real PostgreSQL: stored receipts get the key new ones are written with (merchantKey), so a
// duplicate of an old receipt is found as before the column, and a receipt without a merchant gets none.
describe('the merchant key migration', { timeout: 60_000 }, () => {
  const database = databaseAtMigration('0015_merchant_key');

  it('keys the stored receipts as merchantKey does', async () => {
    await database.migrateBefore();
    for (const name of [...NAMES, null]) {
      const upload = await database.query<{ id: string }>(
        `INSERT INTO uploads (id, filename, mime_type, size, sha256, lane) VALUES (gen_random_uuid(), 'r.jpg', 'image/jpeg', 10, gen_random_uuid()::text, 'standard') RETURNING id`,
      );
      await database.query(
        `INSERT INTO receipts (upload_id, merchant_name, category, quality, items, raw_text, issues, valid) VALUES ($1, $2, 'other', 0.9, '[]', '', '[]', true)`,
        [upload.rows[0]!.id, name],
      );
    }
    await database.migrateAll();
    const { rows } = await database.query<{ merchant_name: string | null; merchant_key: string | null }>('SELECT merchant_name, merchant_key FROM receipts');
    const keys = new Map(rows.map((r) => [r.merchant_name, r.merchant_key]));
    expect(keys.get(null)).toBeNull();
    for (const name of NAMES) expect(keys.get(name), name).toBe(merchantKey(name));
  });
});
