/**
 * What the rules know of each country a receipt may come from: its currency, the order it writes
 * day and month in, the signs its receipts print beside amounts, and the evidence that places a
 * receipt there (tax names, ids, places, postcodes, phone prefixes, words only its receipts print).
 * Adding a country is adding an entry; the currency and date rules read nothing else.
 */
export interface CountryEntry {
  /** ISO 3166-1 alpha-2. */
  country: string;
  /** ISO 4217. */
  currency: string;
  /**
   * Numeric dates: day first, month first, or both in use (Canada), where a date with day and
   * month both ≤ 12 cannot be told and month first is only the likelier.
   */
  dateOrder: 'dmy' | 'mdy' | 'either';
  /** Signs of the currency printed beside amounts ("RM 7.00", "₱250", "100.00 lei"): regular-expression fragments, matched as written (capitals matter: a lone "P" is a peso, a "p" is not). */
  signs?: string[];
  /** Each distinct cue that matches counts once. */
  cues?: RegExp[];
}

/** A sign stands before an amount or, spaced, after it. */
export const signPattern = (sign: string) => new RegExp(`(?<![\\p{L}])(?:${sign})\\.?\\s?-?\\d|\\d[.,]\\d{2}\\s?(?:${sign})(?![\\p{L}])`, 'u');

/** The states' postal codes: a US address's "City, ST". */
export const US_STATES = 'AL|AK|AZ|AR|CA|CO|CT|DE|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|NJ|NM|NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY';

/** Canada's telephone area codes (the North American plan shares its format with the US). */
const CANADIAN_AREA_CODES =
  '204|226|236|249|250|257|263|289|306|343|354|365|367|368|382|403|416|418|428|431|437|438|450|460|468|474|506|514|519|548|579|581|584|587|604|613|639|647|672|683|705|709|742|753|778|780|782|807|819|825|867|873|879|902|905';

export const COUNTRIES: readonly CountryEntry[] = [
  {
    country: 'MY',
    currency: 'MYR',
    dateOrder: 'dmy',
    signs: ['RM'],
    cues: [
      /\b(ringgit|malaysia|kuala lumpur|selangor|johor|penang|sabah|sarawak)\b/i,
      // Bhd / Berhad, whatever OCR made of the "Sdn" before it.
      /\b(sdn\.?\s*bhd|s\/b|bhd|berhad)\b/i,
      /\bgst\s*id\b|\bsst\s*(id|reg|no)\b/i,
      /\(RM\)|\bRM\b/,
      /\+60[\s-]?\d/,
    ],
  },
  {
    country: 'SG',
    currency: 'SGD',
    dateOrder: 'dmy',
    signs: ['S\\$'],
    cues: [
      /\b(singapore|pte\.?\s*ltd)\b/i,
      /\+65[\s-]?\d/,
      // A GST registration number with its check letter ("GST Reg No: 20-0301619-D", "M2-0012345-6" has none): Malaysia's are digits only.
      /\bgst\s*reg(istration)?\.?\s*(n[o0]|number)?\.?\s*:?\s*[A-Z]?\d{2}-?\d{5,8}-?[A-Z]\b/i,
      // A company's UEN: the year it was registered, five digits and a check letter ("201512345K").
      /\b(19|20)\d{7}[A-Z]\b/,
    ],
  },
  {
    country: 'PH',
    currency: 'PHP',
    dateOrder: 'mdy',
    // The peso sign, its abbreviation, and the bare P tills print for it ("P 1,250.00", "P250.00").
    signs: ['₱', 'PHP|Php|php', 'P(?=\\s?\\d{1,3}(?:,\\d{3})*\\.\\d{2}(?!\\d))'],
    cues: [
      /\b(philippines|manila|cebu|quezon|makati|taguig|pasig|davao|pampanga|laguna|cavite|pilipinas)\b/i,
      /\bvat\s*reg\.?\s*tin\b|\bBIR\s*(permit|accr|acc(?:reditation)?|ptu)|\bvatable\b|\bvat[\s-]*exempt\b|\bzero[\s-]*rated\b/i,
      /\b(salamat|maraming salamat|sukli|kabuuan)\b/i,
      /\+63[\s-]?\d/,
    ],
  },
  {
    country: 'IN',
    currency: 'INR',
    dateOrder: 'dmy',
    signs: ['₹'],
    cues: [
      // Not "India": Indian restaurants abroad print it.
      /\b(rupees?|gstin|cgst|sgst|igst|mumbai|delhi|bengaluru|bangalore|kolkata|chennai|hyderabad)\b/i,
      // A GSTIN: state code, PAN (five letters, four digits, a letter), entity number, Z, check character.
      /\b\d{2}[A-Z]{5}\d{4}[A-Z][0-9A-Z]{3}\b/,
      /\+91[\s-]?\d|\bpin\s*code\b/i,
      // "Rs." is India's, but OCR also reads Brazil's R$ as "Rs": a cue, not a sign.
      /\bRs\.?\s?\d/,
    ],
  },
  {
    country: 'CA',
    currency: 'CAD',
    dateOrder: 'either',
    signs: ['C\\$', 'CA\\$'],
    cues: [
      // GST/HST/PST/QST, a province, a Canadian postcode or a GST/HST number.
      /\b(hst|qst|tvq|pst)\b/i,
      /\b(ontario|quebec|québec|alberta|manitoba|saskatchewan|nova scotia|new brunswick|british columbia|toronto|montreal|montréal|vancouver|calgary|ottawa|winnipeg|edmonton|canada)\b/i,
      /\b(on|qc|bc|ab|mb|sk|ns|nb|pe|nl)\s+[A-Z]\d[A-Z]\s?\d[A-Z]\d\b/,
      /\b[A-Z]\d[A-Z]\s\d[A-Z]\d\b/,
      /\bgst\s*\/\s*hst\b|\bhst\s*(#|no\.?|number|reg)|\bgst\s*(#|no\.?|reg)\s*:?\s*\d{9}\s?RT/i,
      // A phone number in one of Canada's area codes ("Tel: (905) 889-8030"); the US has none of them.
      new RegExp(`(?<!\\d)\\(?(?:${CANADIAN_AREA_CODES})\\)?[\\s.-]?\\d{3}[\\s.-]\\d{4}(?!\\d)`),
    ],
  },
  {
    country: 'AU',
    currency: 'AUD',
    dateOrder: 'dmy',
    signs: ['A\\$', 'AU\\$'],
    cues: [/\bABN\b|\bAustralia\b|\bAUSTRALIA\b|\b(NSW|VIC|QLD|WA|SA|TAS|ACT|NT)\s+\d{4}\b/, /\+61[\s-]?\d/],
  },
  { country: 'NZ', currency: 'NZD', dateOrder: 'dmy', signs: ['NZ\\$'], cues: [/\b(new zealand|auckland|wellington|christchurch)\b/i, /\+64[\s-]?\d/] },
  {
    country: 'DE',
    currency: 'EUR',
    dateOrder: 'dmy',
    cues: [
      /\b(mwst|ust|umsatzsteuer|mehrwertsteuer|steuer-?nr|ust-?id(nr)?)\b/i,
      // Not "bar" (cash): English receipts print it in "Restaurant & Bar".
      /\b(summe|gesamt|r(ü|u|ue)ckgeld|gegeben|kasse|danke|vielen dank|pfand|leergut|stk|deutschland|gmbh)\b/i,
      /\bDE\s?\d{9}\b/,
      /\+49[\s-]?\d/,
    ],
  },
  { country: 'AT', currency: 'EUR', dateOrder: 'dmy', cues: [/\bATU\s?\d{8}\b/, /\b(österreich|wien)\b/i, /\+43[\s-]?\d/] },
  { country: 'FR', currency: 'EUR', dateOrder: 'dmy', cues: [/\b(tva|ttc|siret|siren|merci|esp(è|e)ces|rendu|montant)\b/i, /\bFR\s?[0-9A-Z]{2}\s?\d{9}\b/, /\+33[\s-]?\d/] },
  // Spanish and Portuguese words are Latin America's too: only Spain's and Portugal's own ids and names place a receipt in the euro area.
  { country: 'ES', currency: 'EUR', dateOrder: 'dmy', cues: [/\b(nif|cif|españa|espana)\b/i, /\bES\s?[A-Z0-9]\d{7}[A-Z0-9]\b/, /\+34[\s-]?\d/] },
  { country: 'PT', currency: 'EUR', dateOrder: 'dmy', cues: [/\b(nipc|contribuinte|portugal|multibanco)\b/i, /\bPT\s?\d{9}\b/, /\+351[\s-]?\d/] },
  { country: 'NL', currency: 'EUR', dateOrder: 'dmy', cues: [/\b(btw|totaal|bedankt|kassabon|pinnen)\b/i, /\bNL\s?\d{9}B\d{2}\b/, /\+31[\s-]?\d/] },
  { country: 'BE', currency: 'EUR', dateOrder: 'dmy', cues: [/\bBE\s?0\d{9}\b/, /\b(belgique|belgi(ë|e))\b/i, /\+32[\s-]?\d/] },
  { country: 'IT', currency: 'EUR', dateOrder: 'dmy', cues: [/\b(scontrino|totale|contanti|grazie|partita iva|p\.\s?iva)\b/i, /\bIT\s?\d{11}\b/, /\+39[\s-]?\d/] },
  { country: 'IE', currency: 'EUR', dateOrder: 'dmy', cues: [/\b(ireland|dublin)\b/i, /\+353[\s-]?\d/] },
  {
    country: 'CH',
    currency: 'CHF',
    dateOrder: 'dmy',
    // Switzerland also writes MwSt and German words; its own cues outweigh them (decideCurrency).
    cues: [/\bCHE[-\s]?\d{3}\.\d{3}\.\d{3}\b|\b(zürich|zurich|genève|geneve|basel|bern|lausanne|luzern|winterthur|lugano)\b/i, /\+41[\s-]?\d/],
  },
  {
    country: 'GB',
    currency: 'GBP',
    dateOrder: 'dmy',
    signs: ['£(?=\\s?\\d+[.,]\\d{2})'],
    cues: [
      /\b(pounds? sterling|united kingdom|england|scotland|wales|london)\b/i,
      /\bvat\s*(reg(istration)?\.?\s*)?(no|number)?\.?\s*:?\s*(GB)?\s?\d{3}\s?\d{4}\s?\d{2}\b/i,
      /\b[A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2}\b/,
      /\+44[\s-]?\d/,
    ],
  },
  { country: 'RO', currency: 'RON', dateOrder: 'dmy', signs: ['lei|LEI|Lei'], cues: [/\b(rom(â|a)nia|bucure(ș|s)ti|cluj|ia(ș|s)i|timi(ș|s)oara|anaf)\b/i, /\+40[\s-]?\d/] },
  // Moldova writes Romanian too ("bon fiscal", lei): only its own places and ids tell it from Romania.
  { country: 'MD', currency: 'MDL', dateOrder: 'dmy', signs: ['lei|LEI|Lei', 'MDL'], cues: [/\b(moldova|chi(ș|s|ş)in(ă|a)u|b(ă|a)l(ț|t)i|idno)\b/i, /\+373[\s-]?\d/] },
  { country: 'NO', currency: 'NOK', dateOrder: 'dmy', cues: [/\b(norge|oslo|bergen|trondheim|mva)\b/i, /\+47[\s-]?\d/] },
  { country: 'SE', currency: 'SEK', dateOrder: 'dmy', cues: [/\b(sverige|stockholm|göteborg|goteborg|malmö|moms)\b/i, /\+46[\s-]?\d/] },
  { country: 'DK', currency: 'DKK', dateOrder: 'dmy', cues: [/\b(danmark|københavn|kobenhavn|aarhus)\b/i, /\+45[\s-]?\d/] },
  { country: 'PL', currency: 'PLN', dateOrder: 'dmy', signs: ['zł|ZŁ|zl|ZL', 'PLN'], cues: [/\b(polska|warszawa|krak(ó|o)w|paragon fiskalny|nip)\b/i, /\+48[\s-]?\d/] },
  { country: 'CZ', currency: 'CZK', dateOrder: 'dmy', signs: ['Kč|KČ|Kc', 'CZK'], cues: [/\b(česká|ceska|praha|brno|dič|účtenka)\b/i, /\+420[\s-]?\d/] },
  { country: 'HU', currency: 'HUF', dateOrder: 'dmy', signs: ['Ft|FT', 'HUF'], cues: [/\b(magyarország|budapest|nyugta|adószám)\b/i, /\+36[\s-]?\d/] },
  { country: 'ID', currency: 'IDR', dateOrder: 'dmy', signs: ['Rp'], cues: [/\b(indonesia|jakarta|bandung|surabaya|npwp)\b/i, /\+62[\s-]?\d/] },
  { country: 'TH', currency: 'THB', dateOrder: 'dmy', signs: ['฿'], cues: [/\b(thailand|bangkok)\b/i, /\+66[\s-]?\d/] },
  { country: 'KR', currency: 'KRW', dateOrder: 'dmy', signs: ['₩'], cues: [/[\uac00-\ud7af]{2}/] },
  { country: 'HK', currency: 'HKD', dateOrder: 'dmy', signs: ['HK\\$'], cues: [/\b(hong kong|kowloon)\b/i, /\+852[\s-]?\d/] },
  { country: 'AE', currency: 'AED', dateOrder: 'dmy', signs: ['AED|Dhs?|DHS?'], cues: [/\b(dubai|abu dhabi|sharjah|u\.?a\.?e|united arab emirates|trn)\b/i, /\+971[\s-]?\d/] },
  { country: 'ZA', currency: 'ZAR', dateOrder: 'dmy', cues: [/\b(south africa|johannesburg|cape town|pretoria|durban)\b/i, /\+27[\s-]?\d/] },
  // Japan: its script, consumption tax, yen.
  { country: 'JP', currency: 'JPY', dateOrder: 'dmy', cues: [/[\u3040-\u30ff]{2}|消費税|税込|合計|小計|領収|\byen\b/i] },
  // Chile: RUT, boleta, propina, pesos without decimals.
  // The RUT with its number ("RUT" alone is an abbreviation elsewhere); not "chile", a pepper on US menus.
  { country: 'CL', currency: 'CLP', dateOrder: 'dmy', cues: [/\bR\.?U\.?T\.?\s*[:#]?\s*\d/i, /\b(boleta|propina)\b/i] },
  {
    country: 'BR',
    currency: 'BRL',
    dateOrder: 'dmy',
    signs: ['R\\$'],
    cues: [
      /\b(cnpj|cpf|brasil|icms|cupom fiscal|nfc-?e)\b/i,
      /\bnota fiscal\b|\bconsumidor\b/i,
      /\btrib(utos)?\.?\s*aprox/i,
      /\b(rio de janeiro|s(ã|a)o paulo|belo horizonte)\b/i,
      // An NFC-e's access key and the state treasury's web address.
      /\bchave\s+de\s+acesso\b|\bfazenda\b|\.gov\.br\b/i,
    ],
  },
  { country: 'MX', currency: 'MXN', dateOrder: 'dmy', cues: [/\b(rfc|m(é|e)xico|cdmx)\b/i] },
  // United States: a state and ZIP code, sales tax.
  { country: 'US', currency: 'USD', dateOrder: 'mdy', signs: ['US\\$'], cues: [new RegExp(`\\b(${US_STATES}),?\\s+\\d{5}(-\\d{4})?\\b`), /\bsales\s*tax\b|\bstate\s*tax\b/i] },
];

const BY_COUNTRY = new Map(COUNTRIES.map((c) => [c.country, c]));

export function countryEntry(country: string | null | undefined): CountryEntry | undefined {
  return country ? BY_COUNTRY.get(country.toUpperCase()) : undefined;
}

/**
 * The order numeric dates are written in for a currency when the country is not known: that of
 * the countries trading in it when they agree; null when they do not, or none is known.
 */
export function dateOrderOfCurrency(currency: string | undefined): CountryEntry['dateOrder'] | null {
  const orders = new Set(COUNTRIES.filter((c) => c.currency === (currency ?? 'USD')).map((c) => c.dateOrder));
  return orders.size === 1 ? [...orders][0]! : null;
}
