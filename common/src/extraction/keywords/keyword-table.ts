import type { Category } from '../../receipt.schema.js';

/**
 * What a receipt says in one language. Every entry is a regular-expression fragment, matched
 * case-insensitively; in languages written with spaces it must stand as a whole word.
 * Adding a language is adding one table to keywords/index.ts.
 */
export interface KeywordTable {
  language: string;
  /** Tesseract's model for the language ('deu'), where the service has one. */
  ocrModel?: string;
  /**
   * Words its receipts print often that other languages' receipts rarely do: the text read with
   * one model holding more of them than of any other language's asks for this language's model.
   */
  ocrMarkers: string[];
  /** Written without spaces between words (Japanese): entries match anywhere in a line. */
  noWordBoundaries?: boolean;
  /** The amount to pay, said plainly: "total", "Summe". */
  total: string[];
  /** The amount to pay, said unmistakably: "grand total", "zu zahlen", "net à payer". */
  grandTotal: string[];
  subtotal: string[];
  /** Tax charged or contained: VAT, MwSt, TVA, IVA, GST, 消費税. */
  tax: string[];
  /** Words saying the tax is inside the amount, not added: "incl.", "inkl.", "dont", "内税". */
  taxIncluded: string[];
  tip: string[];
  /** A tip the receipt suggests rather than one that was paid: "suggested gratuity", "propina sugerida". */
  suggestion: string[];
  discount: string[];
  rounding: string[];
  /** Money handed back. */
  change: string[];
  /** Money handed over in cash (the tendered amount, often more than the total). */
  cash: string[];
  /** A card or other payment line; its amount is normally the total. */
  card: string[];
  /** Lines counting things, not money: "items", "Posten", "点数". */
  count: string[];
  /** The amount a tax is charged on, printed beside the tax: "Taxable", "8%対象額". */
  taxBase: string[];
  date: string[];
  time: string[];
  receiptNumber: string[];
  /** Tax-registration labels: TIN, USt-IdNr, SIRET, NIF, 登録番号. */
  tin: string[];
  /** Dates that are not the purchase: expiry, validity, points, billing periods. */
  otherDate: string[];
  /** Legal forms and trade words that mark a business name: GmbH, Sdn Bhd, restaurant, Apotheke. */
  business: string[];
  /** Lines that greet or thank: "welcome", "danke". */
  greeting: string[];
  /** What the paper calls itself: "receipt", "tax invoice", "Kassenbon". */
  documentTitle: string[];
  /** Street words of an address: "street", "Straße", "jalan". */
  address: string[];
  /** Phone, fax and web labels. */
  contact: string[];
  /** Who served: "served by", "cashier", "Kassierer" — a line saying it is never the merchant. */
  servedBy: string[];
  /** Where and for whom: "table", "guests", "Kasse" — leading a line or labelling a number, never the merchant. */
  staff: string[];
  /** Column headers over the items: "qty", "price", "Menge". */
  columnHeader: string[];
  /**
   * The labels of the sums block as plain words, spaces dropped ("subtotal", "taxamt"): a line
   * whose label is one of them misspelt by OCR ("Suototal", "ROUNKING") is no item.
   */
  summaryWords: string[];
  /** Words in a merchant's name that say its trade ("pharmacy", "restoran"), by category. */
  categoryNames: Partial<Record<Category, string[]>>;
  /** Words on item lines that say what was bought ("unleaded", "nasi"), by category. */
  categoryItems: Partial<Record<Category, string[]>>;
  /** Month names and abbreviations → month number. */
  months: Record<string, number>;
}
