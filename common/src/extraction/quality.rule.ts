const WEIGHTS = { merchant: 0.3, total: 0.4, date: 0.2, items: 0.1 } as const;
export const DEFAULT_DOCUMENT_CONFIDENCE = 0.8;

export type FieldConfidences = Partial<Record<keyof typeof WEIGHTS, number>>;

/**
 * Spec §5: 0.7 × weighted field confidence + 0.3 × document confidence (0.8 when unknown),
 * capped at 1. The field part averages the present fields by weight; 0.5 when none is present.
 */
export function computeQuality(fields: FieldConfidences, documentConfidence: number | undefined): number {
  let weighted = 0;
  let weights = 0;
  for (const [name, weight] of Object.entries(WEIGHTS) as Array<[keyof typeof WEIGHTS, number]>) {
    const confidence = fields[name];
    if (confidence === undefined) continue;
    weighted += weight * confidence;
    weights += weight;
  }
  const fieldPart = weights > 0 ? weighted / weights : 0.5;
  const doc = documentConfidence ?? DEFAULT_DOCUMENT_CONFIDENCE;
  return Math.min(1, Math.round((0.7 * fieldPart + 0.3 * doc) * 1000) / 1000);
}
