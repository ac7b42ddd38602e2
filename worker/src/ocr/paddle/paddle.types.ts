// What the Paddle OCR engine, its thread and the page reader say to each other: in a module of
// their own, so the thread and the reader need not import the engine that starts them.

export interface OcrLine {
  text: string;
  /** 0..1 */
  confidence: number;
  /** Pixels of the input image. */
  box: { x: number; y: number; width: number; height: number };
}

export interface PaddleThreadData {
  maxSide: number;
}

export type PaddleThreadRequest = { type: 'page'; id: number; image: Uint8Array } | { type: 'abort'; id: number } | { type: 'stop' };

export type PaddleThreadReply =
  | { type: 'done'; id: number; result: { lines: OcrLine[]; confidence: number } }
  | { type: 'failed'; id: number; message: string; stack?: string };
