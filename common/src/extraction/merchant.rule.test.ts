import { describe, expect, it } from 'vitest';
import { cleanMerchantLine, findMerchant, HAND_SET_NAME_WEIGHTS, isJunkLine, isNameLike, nameCandidates, nameScore } from './merchant.rule.js';
import { NAME_FEATURES } from './merchant-name.features.js';

describe('merchant', () => {
  it('takes the service field at confidence 0.8 or more', () => {
    expect(findMerchant({ value: 'Blue Bottle', confidence: 0.92 }, ['Something else'])).toEqual({ name: 'Blue Bottle', confidence: 0.92, via: 'service' });
    expect(findMerchant({ value: 'Blue Bottle', confidence: 0.5 }, ['ACME STORE'])?.name).toBe('ACME STORE');
  });

  it.each([
    [['0¥', 'SURIA JAYA CO. (M) BHD (204517-H)', '3RD FLR, SURIA TAMAN'], 'SURIA JAYA CO. (M) BHD'],
    [['Cv Ee.', '4 lQ oI 2 ;', 'SYARIKAT PERNIAGAAN SRI MAJU', '(45218-A)'], 'SYARIKAT PERNIAGAAN SRI MAJU'],
    [['| SRI BINTANG HARDWARE TRADING', 'Company Reg. Na. : 002417368K'], 'SRI BINTANG HARDWARE TRADING'],
    [['RECEIPT', 'Joe Coffee', '12 Main St'], 'Joe Coffee'],
    [['123456', '!!', '##'], null],
    [['Siue, :', 'MERANTI BOOK', 'CO. (M) SDN BHD', '(Co. No. 274519-K)'], 'MERANTI BOOK CO. (M) SDN BHD'],
    [['KIM SENG HARDWARE', 'ENTERPRISE (BUKIT', 'INDAH) SIN BHD', '604183-X'], 'KIM SENG HARDWARE ENTERPRISE (BUKIT INDAH) SIN BHD'],
    [['I ——', 'NEW HORIZON', 'OWN BY: CHEF WONG SDN BHD', 'CO. NO. (731046-T)'], 'CHEF WONG SDN BHD'],
    // A company-number label read on a line of its own is no part of the name.
    [['ACME HARDWARE SDN BHD', 'CO.N0.', '(123456-A)', 'NO. 1, JALAN MAJU'], 'ACME HARDWARE SDN BHD'],
    [['NORTHWIND TRADING LTD', 'Company No.', '01234567'], 'NORTHWIND TRADING LTD'],
    [['5290417y |', 'MR. K.L.Y. (M) SDN BHD', '(CO.REG :730582-D)', 'KAWASAN PERINDUSTRIAN TAMAN MAJU,'], 'MR. K.L.Y. (M) SDN BHD'],
    [['88 MINI MART S/B {604721-%)', 'LOT P.T. 3517'], '88 MINI MART S/B'],
    [['Bayu Realties Sdn Bhd (Co. No:31872-T)'], 'Bayu Realties Sdn Bhd'],
    // A letter-spaced logo is one word; a trade word on the next line ends the name.
    [['GREEN VALLEY', 'M A R K E T', '14 Orchard Ln'], 'GREEN VALLEY MARKET'],
    // Priced lines and "served by" lines are never the name.
    [['Xr', 'You were served by Daniel', 'OFF-PEAK RETURN 24.50'], null],
    [['Orange Juice 1L 1.49 B', 'Oat Biscuits 0.99 A'], null],
    // A known chain in the header, even read in pieces, beats a weaker line; its trade word stays.
    [['Bergweg Ecke 3', 'Lidl Plus', 'EUR'], 'Lidl'],
    [['Ara l Tank stel le', 'Inhaber Max Muster', 'Hauptstr. 5'], 'Ara l Tank stel le'],
    // A shop's legal name beats the mall's chain in its address; the company under a chain's name operates it.
    [['ORCHID FLORIST & GIFTS S/B', 'COMPANY NO: 123456-A', 'LOT 12, AEON Mall SERI KEMBANGAN,'], 'ORCHID FLORIST & GIFTS S/B'],
    [['SEVEN-ELEVEN', 'TEL03-1234-5678', '领收证', 'セブン-イレブン・ジャパン株式会社'], 'SEVEN-ELEVEN'],
    // A chain named lower down stands in only for a header with no real name.
    [['Apr 2, 2026 order', 'Order# 1234567-89012345', 'Get $2.00 Walmart Cash back'], 'Walmart'],
    [['BLUE DOOR BISTRO', '12 Main St', 'Pay with your Walmart card 1.00'], 'BLUE DOOR BISTRO'],
  ])('%j → %s', (lines, name) => {
    expect(findMerchant(undefined, lines)?.name ?? null).toBe(name);
  });

  it('says when the name is printed again further down', () => {
    expect(findMerchant(undefined, ['Lotus Thai', '418 Elm St', 'TOTAL 30.94', 'Thank you for dining at Lotus Thai'])?.repeated).toBe(true);
    expect(findMerchant(undefined, ['Lotus Thai', 'Lotus Thai Catering', 'TOTAL 30.94'])?.repeated).toBe(false);
  });

  it.each<[string, string[], boolean]>([
    ['a plain line under the name that may be the rest of it', ['HOLLOWAY', 'BRANDT', '754 Main Street', 'TOTAL 30.94'], true],
    ['an address under it', ['HOLLOWAY BRANDT', '754 Main Street', 'TOTAL 30.94'], false],
    ['a phone number under it', ['HOLLOWAY BRANDT', 'Tel 555-0188', 'TOTAL 30.94'], false],
    ['a name ending in its legal form', ['KEDAI MAJU SDN BHD', 'TAMAN SRI', 'TOTAL 30.94'], false],
    ['a trade word the name took in, then the address', ['GREEN LEAF', 'MARKET', '12 Rose Ave', 'TOTAL 30.94'], false],
    ['a sentence under it', ['HOLLOWAY BRANDT', 'Quality goods since the old days', 'TOTAL 30.94'], false],
  ])('says whether the name may go on: %s', (_, lines, continues) => {
    expect(findMerchant(undefined, lines)?.mayContinue).toBe(continues);
  });

  it.each<[string, string[], boolean]>([
    ['a document title above it', ['TAX INVOICE', 'ORCHARD PANTRY', '12 Rose Ave', 'TOTAL 30.94'], true],
    ['a greeting above it', ['Welcome', 'ORCHARD PANTRY', '12 Rose Ave', 'TOTAL 30.94'], true],
    ['a line that may be a name above it', ['Quillby', 'ORCHARD PANTRY', '12 Rose Ave', 'TOTAL 30.94'], false],
  ])('says whether only titles stand above a lower name: %s', (_, lines, titlesOnly) => {
    const found = findMerchant(undefined, lines);
    expect(found?.name).toBe('ORCHARD PANTRY');
    expect(found?.rank).toBe(1);
    expect(found?.underTitlesOnly).toBe(titlesOnly);
  });

  it('applies the spec’s shape rules', () => {
    expect(isNameLike('ab')).toBe(false);
    expect(isNameLike('x'.repeat(51))).toBe(false);
    expect(isNameLike('7-Eleven')).toBe(false);
    expect(isNameLike('Official Receipt')).toBe(false);
    expect(isNameLike('SALES INVOICE')).toBe(false);
    expect(isNameLike("DOMINO'S PIZZA")).toBe(true);
  });

  it('drops registration numbers', () => {
    expect(cleanMerchantLine('LIM & TAN BAKERY (KL) SDN BHD (123456 X)')).toBe('LIM & TAN BAKERY (KL) SDN BHD');
  });
});

describe('merchant across countries and photos', () => {
  it.each<[string[], string | null]>([
    // A photo's background: short fragments and symbol noise above the receipt are skipped.
    [['. (vig 2 3c', '\\ y 2 1', 'Y A : g yy .', '~ ~ ae', 'x ’', 'on ‘', 'i,', '_ -', 'Rs a', 'FRESHCO MARKET', '123 Main St'], 'FRESHCO MARKET'],
    // OCR scraps (letters and digits run together, short lower-case bits) lose to a clean name below them.
    [['GH ape P36lqo1 10 briutor Bao vil mR', 'Sowa wl', 'TESCO', 'Express'], 'TESCO'],
    [['Café de Flore', '172 Bd Saint-Germain'], 'Café de Flore'],
    // A store line names the chain above it.
    [['Thank you for shopping', 'FRESHWAY', 'Store #214', 'Millbrook'], 'FRESHWAY'],
    // A company number after the name without its brackets; a registration line is no name once its number is off.
    [['Xvbo4k', 'i SUNRISE BAKE HOUSE SDN BHD 731852-U', ': (GST Reg No: 002416375091)', 'No.3, Jalan Melati 4/2'], 'i SUNRISE BAKE HOUSE SDN BHD'],
    [['(Co. No. 284631-W)', '(GST Reg No. 002318475000)', 'No 6, Jalan 4/2210, Desa Sri Permai', '56100 Kuala Lumpur, Malaysia'], null],
    // A payment word alone is no name.
    [['(002374815-M)2 :', 'NO. 27, JALAN BESAR, 45800', 'GST No. : 000713826405', 'SIMPLIFIED TAX INVOICE', 'CASH'], null],
    // A name with a bracket left open does not take the address under it.
    [['Cash Sale', 'RAMALINGAM HOLDINGS SDN. BHD. (307415', 'NO.9, 11 & 23, JALAN BESAR,', '39200 TANAH TINGGI'], 'RAMALINGAM HOLDINGS SDN. BHD.'],
    // A generic word alone loses to the real name, wherever it is printed.
    [['Cafe', 'Blue Door Bistro', '12 Rue des Lilas'], 'Blue Door Bistro'],
    [['Welcome to', 'HARBOUR BAR & GRILL', '12 Harbour Road'], 'HARBOUR BAR & GRILL'],
    // A line of trade words alone under a plain name: the name starts above.
    [['Lotus Thai', 'Restaurant & Bar', '418 Elm Street'], 'Lotus Thai Restaurant & Bar'],
    // A line that starts by joining on goes on from the name above it, whichever of the two is chosen.
    [['Jolly Miller’s', 'of Brookfield', '14 Mill Lane'], 'Jolly Miller’s of Brookfield'],
    [['Sandy Bay Tacos Nachos', '& Churros # 214', '88 Beacon Rd'], 'Sandy Bay Tacos Nachos & Churros'],
    [['Gasthaus Sonne', 'und Biergarten', 'Hauptstr. 5'], 'Gasthaus Sonne und Biergarten'],
    // An address above is no name to go on from.
    [['12 Harbour Road', '& Churros'], 'Churros'],
    // Letters OCR spaced out of their words are put back: a lone capital starts a word, a lone small letter ends one.
    [['T HE W E LL', '7,Church Street', 'Little Hampden'], 'THE WELL'],
    [['S u nny Cov e', '88 Shore Road'], 'Su nny Cove'],
    [['Watermi l l Gri ll', 'Restaurant', '410 River Street'], 'Watermill Gri ll Restaurant'],
    // One lone letter, or letters that are words of the name, stay as printed.
    [['A & W Restaurant', '12 Main Street'], 'A & W Restaurant'],
    [['J C Penney', '12 Main Street'], 'JC Penney'],
    // A store's number after the name; staff, table and town lines are never the name.
    [['SHOPMART#994', 'Hundreds of Bargains, Find Yours'], 'SHOPMART'],
    [['Check No.: 1', 'PARKERS DRIVE IN'], 'PARKERS DRIVE IN'],
    [['TABLE 19', 'SERVER: ANN', 'THISTLE PUB & BREWERY'], 'THISTLE PUB & BREWERY'],
    [['MAPLE BAY, CA', 'Driftwood'], 'Driftwood'],
    [['QTY DESCRIPTION PRICE', 'GREEN LEAF CAFE'], 'GREEN LEAF CAFE'],
    [['TAX INVOICE', 'PAWSOME PETS', 'UNIT 4, 200 MAIN AVE'], 'PAWSOME PETS'],
    // Legal forms of many countries are evidence of a name.
    [['Kassenbon', 'Bäckerei Müller GmbH', 'Hauptstr. 5'], 'Bäckerei Müller GmbH'],
    [['Ticket', 'SUPERMERCADOS ALBA S.COOP.', 'Calle Mayor 3'], 'SUPERMERCADOS ALBA S.COOP.'],
    [['さくら商事株式会社', '電話 06-1234-5678'], 'さくら商事株式会社'],
    // An address, a phone number or a currency column header is never the name.
    [['EUR', 'Von-Humboldt-Str. 9', 'Tel. 0221 5550123'], null],
    // A Malay industrial estate is an address line, not a name.
    [['M. K. B. (M) SDN BHD', '(CO.REG:123456-X)', 'LOT 12, JALAN INDAH 3,', 'KAWASAN PERINDUSTRIAN SRI MAJU'], 'M. K. B. (M) SDN BHD'],
    [['KAWASAN PERINDUSTRIAN SRI MAJU', 'LIM AH CHONG'], 'LIM AH CHONG'],
  ])('%j → %s', (lines, name) => {
    expect(findMerchant(undefined, lines)?.name ?? null).toBe(name);
  });

  it('finds a legal name printed at the foot when the head has none', () => {
    const lines = ['Von-Humboldt-Str. 9', '50667 Köln', 'EUR', ...Array.from({ length: 20 }, (_, i) => `ARTIKEL ${i} 1,00 B`), 'SUMME 20,00', 'Feinkost Albers GmbH', 'Danke für Ihren Besuch'];
    expect(findMerchant(undefined, lines)).toMatchObject({ name: 'Feinkost Albers GmbH', line: 24 });
  });

  it.each<[string, boolean]>([
    ['Y A : g yy .', true],
    ['~ ~ ae', true],
    ['EUR', true],
    ['GREEN LEAF MARKET', false],
    ['ミドリ川端店', false],
    ['a y . b q z', true],
    // Initials OCR spaced out, in a registered name: its legal form says it is a name.
    ['K. L. Y. (M) SDN BHD', false],
  ])('junk %j → %s', (line, junk) => {
    expect(isJunkLine(line)).toBe(junk);
  });
});

describe('the merchant chooser: candidate lines, their features and the weights', () => {
  const lines = ['Harbour View', 'Kim Family Kitchen Sdn Bhd', 'No 5, Jalan Ampang', 'Tel: 03-2161 1234'];

  it('lists the name-like lines of the header with what they look like', () => {
    const candidates = nameCandidates(lines);
    // The phone line is never a name; the address competes, weighed down.
    expect(candidates.map((c) => lines[c.index])).toEqual(['Harbour View', 'Kim Family Kitchen Sdn Bhd', 'No 5, Jalan Ampang']);
    expect(candidates[1]!.features).toMatchObject({ business: 1, capitals: 0, rank: 1, foot: 0 });
    expect(candidates[2]!.features).toMatchObject({ address: 1, rank: 2 });
    expect(Object.keys(candidates[0]!.features)).toEqual([...NAME_FEATURES]);
  });

  it('takes the line the weights score highest, the hand-set ones by default', () => {
    expect(findMerchant(undefined, lines)?.name).toBe('Kim Family Kitchen Sdn Bhd');
    // Weights that only count rank take the first name-like line; the threshold stays on the hand-set scale.
    const onlyRank = Object.fromEntries(NAME_FEATURES.map((f) => [f, f === 'rank' ? -1 : 0])) as typeof HAND_SET_NAME_WEIGHTS;
    const first = nameCandidates(lines)[0]!;
    expect(nameScore(first, HAND_SET_NAME_WEIGHTS)).toBeLessThan(nameScore(nameCandidates(lines)[1]!, HAND_SET_NAME_WEIGHTS));
    expect(findMerchant(undefined, lines, null, onlyRank)?.name).toBe('Harbour View');
  });
});
