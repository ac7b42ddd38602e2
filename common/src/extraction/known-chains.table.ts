import type { Category } from '../receipt.schema.js';

/**
 * Retail and restaurant chains of the countries the product serves, by the name their receipts
 * print (often only as a logo OCR cannot read, or read with a letter wrong). A chain named in a
 * receipt's header, or by its web domain anywhere, names the merchant; a chain of one country
 * places the receipt there. Adding a country is adding its list.
 */
export interface KnownChain {
  /** How the chain writes its name. */
  name: string;
  /** Other printed forms, lower case (a legal name, a name without spaces). */
  aliases?: string[];
  /** ISO 3166-1 alpha-2 of the countries where it trades (its receipts' currency follows). */
  countries: string[];
  /** Own brands only it sells, printed on item lines where the name is a logo: evidence when several items carry them. */
  brands?: string[];
}

/**
 * Brands whose name in a merchant's says its trade: for the category only (they name no merchant,
 * and several are logos or oil companies whose stations trade under other names).
 */
export const BRAND_CATEGORIES: Readonly<Partial<Record<Category, string[]>>> = {
  gas: ['petronas', 'shell', 'caltex', 'esso', 'chevron', 'exxon', 'mobil', 'bp', 'texaco'],
  pharmacy: ['guardian', 'watsons', 'cvs', 'walgreens', 'boots'],
  restaurant: ['kfc', "mcdonald'?s", "domino'?s", 'starbucks'],
  grocery: ['aeon', 'tesco', 'giant', 'mydin', 'lotus', 'walmart', 'kroger', 'aldi', 'lidl'],
  retail: ['ikea'],
};

const chains = (countries: string[], names: Array<string | [string, ...string[]]>): KnownChain[] =>
  names.map((n) => (typeof n === 'string' ? { name: n, countries } : { name: n[0], aliases: n.slice(1), countries }));

export const KNOWN_CHAINS: readonly KnownChain[] = [
  { name: 'Walmart', countries: ['US', 'CA', 'MX'], brands: ['Great Value', 'Equate', 'Marketside', 'Freshness Guaranteed', 'Mainstays', "Parent's Choice"] },
  { name: 'Target', countries: ['US'], brands: ['Good & Gather', 'up&up', 'Market Pantry', 'Favorite Day'] },
  ...chains(['US'], [
    'Kroger', 'Safeway', 'Albertsons', 'Publix', 'Meijer', 'Walgreens', 'Home Depot', "Lowe's",
    ["Trader Joe's", 'trader joes'], 'Whole Foods Market', 'Wegmans', 'H-E-B', 'Food Lion', 'Giant Eagle', 'Stop & Shop',
    'ShopRite', 'Hy-Vee', "Dillard's", "Macy's", 'Best Buy', 'Dollar General', 'Family Dollar', 'Dollar Tree', "Dunkin'",
    'Chipotle', 'Panera Bread', 'Taco Bell', "Wendy's", 'Chick-fil-A', 'Sprouts Farmers Market', 'Piggly Wiggly',
  ]),
  { name: 'Costco Wholesale', countries: ['US', 'CA'], brands: ['Kirkland Signature', 'Kirkland'] },
  ...chains(['US', 'CA'], ['CVS Pharmacy', 'Staples', 'Starbucks', "McDonald's", 'Subway', 'Burger King']),
  ...chains(['CA'], [
    'Loblaws', ['Loblaw'], 'Sobeys', 'Metro', 'No Frills', 'Real Canadian Superstore', 'Shoppers Drug Mart', 'Canadian Tire',
    'Save-On-Foods', 'FreshCo', 'Farm Boy', 'Food Basics', 'Tim Hortons', 'Dollarama', 'Provigo', 'IGA',
  ]),
  ...chains(['GB'], [
    'Tesco', "Sainsbury's", 'Asda', 'Morrisons', 'Waitrose', 'Marks & Spencer', 'Co-op Food', 'Iceland', 'Boots', 'Greggs',
    'Pret A Manger', 'Moto', 'Welcome Break', 'WHSmith', 'Superdrug', 'Wilko', 'Poundland',
  ]),
  ...chains(['DE', 'AT'], [
    'REWE', 'EDEKA', 'Kaufland', 'Netto Marken-Discount', 'Penny', 'Marktkauf', 'Globus', 'Rossmann', 'Müller',
    'Tegut', 'Norma', 'Famila', 'Aral', 'Shell', 'Esso', 'Hornbach', 'OBI', 'Bauhaus', 'Toom',
    'Spar', 'Billa', 'Hofer', 'Thalia', 'Tchibo',
  ]),
  ...chains(['DE', 'AT', 'FR', 'ES', 'PT', 'IT', 'NL', 'BE', 'GB', 'CH', 'IE', 'US'], ['Lidl', 'Aldi', 'IKEA', 'Decathlon']),
  ...chains(['FR'], [
    'Carrefour', 'E.Leclerc', 'Auchan', 'Intermarché', 'Monoprix', 'Franprix', 'Casino', 'Super U', 'Système U', 'Picard',
    'Leroy Merlin', 'Fnac', 'Boulanger', 'Biocoop', 'Cora',
  ]),
  ...chains(['ES'], ['Mercadona', 'Eroski', 'Alcampo', 'El Corte Inglés', 'Hipercor', 'Caprabo', 'Ahorramás', 'Bonpreu']),
  ...chains(['PT'], ['Continente', 'Pingo Doce', 'Intermarché', 'Minipreço', 'Jumbo', 'Worten']),
  ...chains(['IT'], ['Esselunga', 'Conad', 'Coop Italia', 'Carrefour Market', 'Eurospin', 'Pam Panorama', 'Despar', 'Iper']),
  ...chains(['NL', 'BE'], ['Albert Heijn', 'Jumbo', 'Dirk', 'Hoogvliet', 'Colruyt', 'Delhaize', 'Kruidvat', 'HEMA']),
  ...chains(['CH'], ['Coop', 'Migros', 'Denner', 'Volg', 'Manor', 'Globus']),
  // Each chain where it trades: a chain of one country places the receipt there (and in its currency).
  ...chains(['AU'], ['Coles', 'Big W']),
  ...chains(['NZ'], ['Countdown', 'New World', "PAK'nSAVE"]),
  ...chains(['AU', 'NZ'], ['Woolworths', 'IGA', 'Bunnings', 'Kmart', 'Chemist Warehouse']),
  ...chains(['JP'], [
    ['AEON', 'イオン'], ['Ito-Yokado', 'イトーヨーカドー'], ['Seven-Eleven', 'セブン-イレブン', '7-eleven'],
    ['FamilyMart', 'ファミリーマート'], ['Lawson', 'ローソン'], ['Uniqlo', 'ユニクロ'],
    ['Daiso', 'ダイソー'], ['Matsumoto Kiyoshi', 'マツモトキヨシ'], ['Don Quijote', 'ドン・キホーテ'],
    ['Yodobashi Camera', 'ヨドバシカメラ'], ['Bic Camera', 'ビックカメラ'], ['Seiyu', '西友'], ['Summit', 'サミット'],
  ]),
  ...chains(['IN'], [
    'Reliance Fresh', 'Reliance Digital', 'DMart', 'Big Bazaar', 'More Supermarket',
    'Croma', 'Spar Hypermarket', 'Star Bazaar', 'Nature’s Basket',
  ]),
  ...chains(['BR'], ['Pão de Açúcar', 'Carrefour', 'Assaí Atacadista', 'Atacadão', 'Mercado Livre', 'Drogasil']),
  ...chains(['CL'], ['Jumbo', 'Líder', 'Unimarc', 'Santa Isabel', 'Tottus', 'Falabella']),
  ...chains(['MX'], ['Soriana', 'Chedraui', 'Bodega Aurrera', 'Oxxo', 'La Comer']),
  ...chains(['PH'], ['SM Supermarket', 'Puregold', 'Robinsons Supermarket', 'Jollibee', 'Mercury Drug']),
  ...chains(['SG'], ['FairPrice', 'Cold Storage', 'Giant', 'Sheng Siong']),
  ...chains(['MY'], ['Mydin', 'Giant', 'Tesco', 'AEON', '99 Speedmart', 'Econsave', 'Guardian', 'Watsons']),
];

/**
 * What each known chain sells, by its name in KNOWN_CHAINS (every chain has one): a receipt the
 * chain names gets that category, whatever words its lines hold ("REWE Markt" is groceries, "Moto"
 * a motorway service station).
 */
export const CHAIN_CATEGORIES: Readonly<Record<Exclude<Category, 'other'>, readonly string[]>> = {
  grocery: [
    'Walmart', 'Kroger', 'Safeway', 'Albertsons', 'Publix', 'Meijer', "Trader Joe's", 'Whole Foods Market', 'Wegmans', 'H-E-B',
    'Food Lion', 'Giant Eagle', 'Stop & Shop', 'ShopRite', 'Hy-Vee', 'Sprouts Farmers Market', 'Piggly Wiggly', 'Costco Wholesale',
    'Loblaws', 'Loblaw', 'Sobeys', 'Metro', 'No Frills', 'Real Canadian Superstore', 'Save-On-Foods', 'FreshCo', 'Farm Boy', 'Food Basics',
    'Provigo', 'IGA', 'Tesco', "Sainsbury's", 'Asda', 'Morrisons', 'Waitrose', 'Co-op Food', 'Iceland', 'REWE', 'EDEKA',
    'Kaufland', 'Netto Marken-Discount', 'Penny', 'Marktkauf', 'Globus', 'Tegut', 'Norma', 'Famila', 'Spar', 'Billa', 'Hofer',
    'Lidl', 'Aldi', 'Carrefour', 'E.Leclerc', 'Auchan', 'Intermarché', 'Monoprix', 'Franprix', 'Casino', 'Super U', 'Système U',
    'Picard', 'Biocoop', 'Cora', 'Mercadona', 'Eroski', 'Alcampo', 'Hipercor', 'Caprabo', 'Ahorramás', 'Bonpreu', 'Continente',
    'Pingo Doce', 'Minipreço', 'Jumbo', 'Esselunga', 'Conad', 'Coop Italia', 'Carrefour Market', 'Eurospin', 'Pam Panorama',
    'Despar', 'Iper', 'Albert Heijn', 'Dirk', 'Hoogvliet', 'Colruyt', 'Delhaize', 'Coop', 'Migros', 'Denner', 'Volg', 'Coles',
    'Countdown', 'New World', "PAK'nSAVE", 'Woolworths', 'AEON', 'Ito-Yokado', 'Seven-Eleven', 'FamilyMart', 'Lawson', 'Seiyu',
    'Summit', 'Reliance Fresh', 'DMart', 'Big Bazaar', 'More Supermarket', 'Spar Hypermarket', 'Star Bazaar', 'Nature’s Basket',
    'Pão de Açúcar', 'Assaí Atacadista', 'Atacadão', 'Líder', 'Unimarc', 'Santa Isabel', 'Tottus', 'Soriana', 'Chedraui',
    'Bodega Aurrera', 'Oxxo', 'La Comer', 'SM Supermarket', 'Puregold', 'Robinsons Supermarket', 'FairPrice', 'Cold Storage',
    'Giant', 'Sheng Siong', 'Mydin', '99 Speedmart', 'Econsave',
  ],
  restaurant: [
    "Dunkin'", 'Chipotle', 'Panera Bread', 'Taco Bell', "Wendy's", 'Chick-fil-A', 'Starbucks', "McDonald's", 'Subway', 'Burger King',
    'Tim Hortons', 'Greggs', 'Pret A Manger', 'Jollibee',
  ],
  gas: ['Moto', 'Welcome Break', 'Aral', 'Shell', 'Esso'],
  pharmacy: [
    'Walgreens', 'CVS Pharmacy', 'Shoppers Drug Mart', 'Boots', 'Superdrug', 'Rossmann', 'Müller', 'Kruidvat', 'Chemist Warehouse',
    'Matsumoto Kiyoshi', 'Drogasil', 'Mercury Drug', 'Guardian', 'Watsons',
  ],
  retail: [
    'Target', 'Home Depot', "Lowe's", "Dillard's", "Macy's", 'Best Buy', 'Dollar General', 'Family Dollar', 'Dollar Tree', 'Staples',
    'Canadian Tire', 'Dollarama', 'Marks & Spencer', 'WHSmith', 'Wilko', 'Poundland', 'Hornbach', 'OBI', 'Bauhaus', 'Toom',
    'Thalia', 'Tchibo', 'IKEA', 'Decathlon', 'Leroy Merlin', 'Fnac', 'Boulanger', 'El Corte Inglés', 'Worten', 'HEMA', 'Manor',
    'Big W', 'Bunnings', 'Kmart', 'Uniqlo', 'Daiso', 'Don Quijote', 'Yodobashi Camera', 'Bic Camera', 'Reliance Digital', 'Croma',
    'Mercado Livre', 'Falabella',
  ],
};
