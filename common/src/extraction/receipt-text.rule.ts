/** A text counts as a receipt when it has at least this many letters or digits… */
const MIN_TEXT_CHARS = 20;
/**
 * …and states an amount: a scanned receipt saved from a browser or a scanner app often carries
 * a few words of text (a link, a header) over the picture of the receipt itself, and an e-mail
 * saying "receipt attached" has words but no amount.
 */
const AMOUNT = /\d[.,]\d{2}(?!\d)|[$€£¥￥₹]\s?\d|\d\s?(?:円|EUR|USD)/;

/** Whether a text (a PDF's text layer, an e-mail's body) holds a receipt, rather than words around one. */
export function isReceiptText(text: string): boolean {
  return text.replace(/[^\p{L}\p{N}]/gu, '').length >= MIN_TEXT_CHARS && AMOUNT.test(text);
}
