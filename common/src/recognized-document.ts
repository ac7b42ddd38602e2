/**
 * What an OCR engine hands to the extraction rules: the shape spec §3 says is read from the
 * document-recognition service (`documents[0].fields`, `content`, `documents[0].confidence`).
 * The local engine fills `content` (and may leave `fields` empty); Document AI fills both.
 */
export interface RecognizedField {
  /** Normalised value when the service gives one (number for money, ISO date string for dates). */
  value?: string | number;
  /** Text as printed. */
  content?: string;
  confidence?: number;
  /** Sub-fields, e.g. an item's Description / Quantity / Price / TotalPrice. */
  fields?: Record<string, RecognizedField>;
  /** Array values, e.g. Items. */
  values?: RecognizedField[];
}

/**
 * A box on a page of the stored original as a viewer shows it (EXIF orientation applied, a PDF
 * page as rendered), in fractions of that page's width and height: 0..1 whatever the resolution.
 */
export interface TextBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** One line of recognised text and where it was read. */
export interface RecognizedLine {
  /** 0-based page of the original. */
  page: number;
  text: string;
  box: TextBox;
  /** 0..1 */
  confidence: number;
  /**
   * The other reader's text of this line's box, where it was asked: the line a total the rules
   * could not confirm was read from. Two readers seldom misread a line the same way.
   */
  readAgain?: string;
}

export interface RecognizedDocument {
  content: string;
  documents: Array<{ confidence?: number; fields: Record<string, RecognizedField> }>;
  /**
   * Every line with its place, when the engine knows it. `content` is then exactly these lines'
   * texts joined by `\n`, so the n-th line of `content` is `lines[n]`.
   */
  lines?: RecognizedLine[];
  /** Which reader produced the text, e.g. `tesseract:eng`, `paddle`, `pdf-text`, `documentai`. */
  readBy?: string;
  /** Per page, the quarter turn (clockwise, degrees) that shows its picture the way it was read. */
  pageTurns?: number[];
}
