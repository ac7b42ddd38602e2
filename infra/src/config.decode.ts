import { z } from 'zod';

/**
 * Limits on decoding an uploaded file (worker/src/document/decode.sandbox.ts): part of every
 * process's config, and the defaults where no config is at hand (the extract CLI, tests).
 */
export const decodeConfigShape = {
  /**
   * CPU time one file may take to decode (wall time: six times that, or this where /proc is not
   * there to read CPU time from); past it the decoder process is killed and the upload fails.
   */
  DECODE_TIMEOUT_MS: z.coerce.number().int().min(1000).default(30_000),
  /**
   * Resident memory a decoder process may reach; past it, it is killed and the upload fails. An
   * 80-megapixel image inside a PDF peaks at about 1.3 GB.
   */
  DECODE_MAX_RSS_MB: z.coerce.number().int().min(256).default(1536),
  /** Decoder processes per worker process (each reads one file at a time). */
  DECODE_PROCESSES: z.coerce.number().int().min(1).max(16).default(2),
};

export const decodeConfigSchema = z.object(decodeConfigShape);
export type DecodeConfig = z.infer<typeof decodeConfigSchema>;
