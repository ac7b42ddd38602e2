// npm run bench:learning — categories and merchant names that learn. A user corrects the first
// receipt of each merchant (name and category); what share of the later receipts come out right
// with no correction, with the learned rules and without them? The rules are the ones the api
// learns (learnedRules) and the worker applies (applyMerchantRules), kept as the repository keeps
// them (one per kind and merchant key, the newest winning).
//   1. A generated sequence (seeded): merchants printed under a legal name the user shortens, read
//      with OCR slips (a letter confused, spacing and punctuation lost), in shuffled order.
//   2. The SROIE transcripts in ../shared/receipts when present: receipts grouped by the labelled
//      company; the user types the label on the first, later ones are right when the merchant
//      equals it (the set has no category labels).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

// Workspace packages resolve to their TypeScript sources, as under vitest: no build needed.
if (!process.execArgv.includes('--conditions=source')) {
  const run = spawnSync(process.execPath, ['--conditions=source', ...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit' });
  process.exit(run.status ?? 1);
}

const common = await import('@receipts/common');
const { applyMerchantRules, categorize, extractReceipt, learnedRules, merchantKey, receiptChanges } = common;
// A receipt's category: one of the spec's six, or after a person's correction one of their own.
type Category = string;
type MerchantRule = import('@receipts/common').MerchantRule;
type ReceiptRecord = import('@receipts/common').ReceiptRecord;

/** The rules of one user, as merchant_rules holds them. */
class RuleStore {
  private readonly rules = new Map<string, MerchantRule>();
  list(): MerchantRule[] {
    return [...this.rules.values()];
  }
  learn(learned: ReadonlyArray<Pick<MerchantRule, 'kind' | 'match' | 'value'>>): void {
    for (const { kind, match, value } of learned) {
      const matchKey = merchantKey(match);
      const key = `${kind}:${matchKey}`;
      this.rules.delete(key);
      if (kind === 'merchant' && value === match) continue;
      this.rules.set(key, { kind, match, matchKey, value });
    }
  }
}

interface Seen {
  merchant: string;
  /** The name and category the user wants. */
  name: string;
  category: Category;
  extracted: ReceiptRecord;
}

interface Tally {
  later: number;
  right: number;
  nameRight: number;
  categoryRight: number;
}

/**
 * Runs a sequence through extraction → rules → (the first receipt of a merchant) correction,
 * and counts the later receipts right without correction.
 */
function run(sequence: readonly Seen[], withRules: boolean): Tally {
  const store = new RuleStore();
  const corrected = new Set<string>();
  const tally: Tally = { later: 0, right: 0, nameRight: 0, categoryRight: 0 };
  for (const seen of sequence) {
    const { receipt, merchantRead } = withRules ? applyMerchantRules(seen.extracted, store.list()) : { receipt: seen.extracted, merchantRead: seen.extracted.merchantName };
    if (!corrected.has(seen.merchant)) {
      corrected.add(seen.merchant);
      const after: ReceiptRecord = { ...receipt, merchantName: seen.name, category: seen.category };
      store.learn(learnedRules({ merchantRead, merchantName: receipt.merchantName }, after, receiptChanges(receipt, after)));
      continue;
    }
    tally.later += 1;
    const nameRight = receipt.merchantName === seen.name;
    // BENCH_VERBOSE=1 lists the receipts the rules did not name right.
    if (process.env.BENCH_VERBOSE && withRules && !nameRight) console.log(`    missed: read ${JSON.stringify(seen.extracted.merchantName)} → ${JSON.stringify(receipt.merchantName)}, wanted ${JSON.stringify(seen.name)}`);
    const categoryRight = receipt.category === seen.category;
    if (nameRight) tally.nameRight += 1;
    if (categoryRight) tally.categoryRight += 1;
    if (nameRight && categoryRight) tally.right += 1;
  }
  return tally;
}

const pct = (n: number, of: number) => (of === 0 ? '—' : `${((n / of) * 100).toFixed(1)}%`);
function report(title: string, sequence: readonly Seen[], withCategories = true): void {
  const before = run(sequence, false);
  const after = run(sequence, true);
  const merchants = new Set(sequence.map((s) => s.merchant)).size;
  console.log(`\n${title}: ${sequence.length} receipts of ${merchants} merchants, ${after.later} after each merchant's first`);
  const line = (label: string, t: Tally) =>
    console.log(
      `  ${label.padEnd(16)} ${withCategories ? `right without correction ${pct(t.right, t.later).padStart(6)}   ` : ''}name ${pct(t.nameRight, t.later).padStart(6)}` +
        (withCategories ? `   category ${pct(t.categoryRight, t.later).padStart(6)}` : ''),
    );
  line('without rules', before);
  line('with rules', after);
}

// 1. The generated sequence.

/** mulberry32: the same sequence on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = random(17);
const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)]!;

/** Invented merchants: the name printed on the receipt, the name the user keeps, the category they file it under, an item. */
const MERCHANTS: Array<[printed: string, name: string, category: Category, item: string]> = [
  ['NORTHWIND PROVISIONS SDN BHD', 'Northwind', 'grocery', 'MILK 1L'],
  ['KEDAI RUNCIT LIM BROTHERS', 'Lim Brothers', 'grocery', 'BREAD'],
  ['BLUE HARBOUR TRADING CO', 'Blue Harbour', 'retail', 'CABLE TIE'],
  ['SRI MAJU ENTERPRISE', 'Sri Maju', 'retail', 'A4 PAPER'],
  ['PETRO STAR SERVICE STN 0412', 'Petro Star', 'gas', 'RON95'],
  ['FUELWAY KM 23 LAYBY', 'Fuelway', 'gas', 'DIESEL'],
  ['RESTORAN SELERA KAMPUNG', 'Selera Kampung', 'restaurant', 'NASI LEMAK'],
  ['GOLDEN SPOON KITCHEN SDN BHD', 'Golden Spoon', 'restaurant', 'FRIED RICE'],
  ['HARMONY HEALTH DISPENSARY', 'Harmony Health', 'pharmacy', 'PARACETAMOL 500MG'],
  ['WELLCARE PHARMACY (PJ) SDN BHD', 'WellCare', 'pharmacy', 'VITAMIN C'],
  ['OAKRIDGE BAKERIES (M) SDN BHD', 'Oakridge', 'grocery', 'WHITE BREAD'],
  ['CITY PRINT & COPY CENTRE', 'City Print', 'other', 'COLOUR COPY'],
  ['TANJUNG PARKING SERVICES', 'Tanjung Parking', 'other', 'PARKING 2H'],
  ['MEGA HARDWARE & ELECTRICAL', 'Mega Hardware', 'retail', 'SCREW 10PCS'],
  ['KOPI HOUSE 88', 'Kopi House', 'restaurant', 'KOPI O'],
  ['EVERGREEN MART', 'Evergreen', 'grocery', 'EGGS 10'],
  ['ZENITH OPTICAL GALLERY', 'Zenith Optical', 'other', 'LENS CLOTH'],
  ['SUNRISE LAUNDRY SERVICES', 'Sunrise Laundry', 'other', 'WASH 5KG'],
  ['MAJESTIC STATIONERY SUPPLIES', 'Majestic Stationery', 'retail', 'PEN BLUE'],
  ['GREENLEAF ORGANIC STORE', 'Greenleaf', 'grocery', 'SPINACH'],
];

/** OCR's usual confusions, both ways. */
const CONFUSIONS: Record<string, string> = { I: 'l', l: 'I', O: '0', '0': 'O', S: '5', '5': 'S', B: '8', '8': 'B', E: 'F', G: '6', Z: '2', D: '0' };

/** The printed name as one OCR pass might read it. */
function misread(printed: string): string {
  const roll = rand();
  if (roll < 0.55) return printed;
  if (roll < 0.75) {
    // Spacing and punctuation lost or doubled.
    return pick([printed.replace(/[.&()]/g, ''), printed.replace(/ /g, '  '), printed.replace(/ (SDN BHD|CO|CENTRE)$/, ''), printed.toLowerCase()]);
  }
  const slips = roll < 0.93 ? 1 : 2;
  const chars = [...printed];
  for (let s = 0; s < slips; s++) {
    const at = chars.findIndex((c, i) => i >= Math.floor(rand() * chars.length) && CONFUSIONS[c]);
    if (at >= 0) chars[at] = CONFUSIONS[chars[at]!]!;
  }
  return chars.join('');
}

const generated: Seen[] = [];
for (const [printed, name, category, item] of MERCHANTS) {
  const receipts = 3 + Math.floor(rand() * 6);
  for (let i = 0; i < receipts; i++) {
    const read = misread(printed);
    const items = [{ description: item, qty: 1, amount: 5 }];
    generated.push({
      merchant: name,
      name,
      category,
      extracted: { merchantName: read, category: categorize(read, item), quality: 0.9, items, rawText: read },
    });
  }
}
// Shuffled: merchants come back in any order.
for (let i = generated.length - 1; i > 0; i--) {
  const j = Math.floor(rand() * (i + 1));
  [generated[i], generated[j]] = [generated[j]!, generated[i]!];
}
report('Generated sequence (seed 17)', generated);

// 2. The SROIE transcripts, when the shared sets are beside the repository.
const { groundTruthText, loadLabels, receiptsDir } = await import('#test-support/receipt-data');
if (existsSync(path.join(receiptsDir, 'labels.json'))) {
  const labels = await loadLabels();
  const sequence: Seen[] = [];
  for (const label of labels) {
    const text = await groundTruthText(label.file);
    const extracted = extractReceipt({ content: text, documents: [{ fields: {} }] } as never, { now: new Date('2019-01-01') });
    // The user keeps their category for the merchant: taken here as the first receipt's (no labels to say otherwise).
    sequence.push({ merchant: label.company, name: label.company, category: extracted.category, extracted });
  }
  const firstCategory = new Map<string, Category>();
  for (const seen of sequence) {
    if (!firstCategory.has(seen.merchant)) firstCategory.set(seen.merchant, seen.category);
    seen.category = firstCategory.get(seen.merchant)!;
  }
  report('SROIE transcripts (../shared/receipts), by labelled company, names only', sequence, false);
} else {
  console.log(`\nskipped: the SROIE transcripts — ${path.relative(process.cwd(), receiptsDir)} is not beside the repository`);
}
