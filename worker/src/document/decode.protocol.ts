import type { AcceptedMime } from '@receipts/common';
import type { PageImage } from '../page/page.types.js';

/** One line of a PDF's text layer and where it lies on its page, in fractions (0..1) from the top left. */
export interface TextLine {
  page: number;
  text: string;
  box: { x: number; y: number; width: number; height: number };
}

/**
 * A decoded file without what the caller already has (its type and original bytes): what
 * DecodedDocument adds to them.
 */
export interface DecodedPages {
  pages: Array<Omit<PageImage, 'toOriginal'>>;
  textLayer?: string;
  /** Line n of `textLayer` is `textLines[n]`. */
  textLines?: TextLine[];
  /** PNG pictures of the pages for the review screen when `pages` has none (a PDF read from its text layer). */
  pictures?: Buffer[];
}

/** Parent → decoder process: one file. */
export interface DecodeRequest {
  id: number;
  bytes: Uint8Array;
  mimeType: AcceptedMime;
}

/** Decoder process → parent. */
export type DecodeReply =
  | { type: 'ready' }
  | { type: 'done'; id: number; result: DecodedPages }
  /** `unreadable`: the file's own fault (UnreadableFileError), the message is for the user. */
  | { type: 'failed'; id: number; unreadable: boolean; message: string; stack?: string; cause?: string };
