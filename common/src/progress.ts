import { z } from 'zod';

/**
 * The pipeline's milestones, declared once: the worker reports them in this order and the web
 * labels them. Percentages are the spec's (§4): 10, 20, 30, 40, 50, 70, 85, 95, then 100.
 */
export const PIPELINE_STEPS = [
  { step: 'loaded', progress: 10, label: 'File received' },
  { step: 'decoded', progress: 20, label: 'Reading file' },
  { step: 'prepared', progress: 30, label: 'Preparing image' },
  { step: 'recognizing', progress: 40, label: 'Recognizing text' },
  { step: 'recognized', progress: 50, label: 'Text recognized' },
  { step: 'extracted', progress: 70, label: 'Extracting fields' },
  { step: 'validated', progress: 85, label: 'Checking fields' },
  { step: 'saving', progress: 95, label: 'Saving' },
] as const;

export const pipelineStepSchema = z.enum(PIPELINE_STEPS.map((s) => s.step));
export type PipelineStep = (typeof PIPELINE_STEPS)[number]['step'];

export const COMPLETED_PROGRESS = 100;

const byStep = new Map<PipelineStep, (typeof PIPELINE_STEPS)[number]>(PIPELINE_STEPS.map((s) => [s.step, s]));

export function progressOf(step: PipelineStep): number {
  return byStep.get(step)!.progress;
}

/** The web reads steps over HTTP unparsed: a step it does not know shows as itself. */
export function labelOf(step: PipelineStep): string {
  return byStep.get(step)?.label ?? step;
}
