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

export interface RecognizedDocument {
  content: string;
  documents: Array<{ confidence?: number; fields: Record<string, RecognizedField> }>;
}
