import { bytesField, fieldsOf, floatField, text, varintField, varintsOf, type WireField } from './onnx-wire.js';

/** How many of each rewrite a model took. */
export interface GraphRewrites {
  /** Scalar Mul/Add steps after a Conv, reshaped so onnxruntime folds them into the convolution. */
  convAffine: number;
  /** Hard-swish chains (Add, Clip, Mul, Div) replaced by HardSigmoid and one Mul. */
  hardSwish: number;
}

interface GraphNode {
  body: Uint8Array;
  opType: string;
  domain: string;
  inputs: string[];
  outputs: string[];
  /** Nodes that take its place in the graph: none when it is gone. */
  replacedBy?: GraphNode[];
}

/** ONNX's TensorProto data type FLOAT; AttributeProto types FLOAT and TENSOR. */
const FLOAT = 1;
const ATTRIBUTE_FLOAT = 1;
const ATTRIBUTE_TENSOR = 4;

/**
 * PP-OCR's models as paddle2onnx writes them, rewritten so onnxruntime's optimiser can do its
 * work; the arithmetic is the same (outputs agree to float rounding). Profiled on one thread,
 * half of a recognition run went to element-wise passes over whole feature maps:
 * - every Conv is followed by a learnable scale and shift (Mul, Add) by a constant of shape [1].
 *   onnxruntime folds such steps into the convolution's weights only when the constant has the
 *   shape [C, 1, …], so the constant gets that shape, its value repeated, the conv's side first;
 * - every hard-swish is four passes, x · clip(x + 3, 0, 6) / 6. HardSigmoid(x; 1/6, ½) is the
 *   same clip in one pass, and one Mul by x completes it.
 * Constants no node reads any more are dropped, so the runtime has nothing to warn about.
 */
export function rewritePaddleGraph(model: Uint8Array): { model: Uint8Array; rewrites: GraphRewrites } {
  const modelFields = fieldsOf(model);
  const graphField = modelFields.find((f) => f.field === 7 && f.bytes);
  if (!graphField?.bytes) throw new Error('The ONNX model has no graph');
  const graphFields = fieldsOf(graphField.bytes);
  const nodes = graphFields.filter((f) => f.field === 1 && f.bytes).map((f) => readNode(f.bytes!));
  const graphOutputs = new Set(graphFields.filter((f) => f.field === 12 && f.bytes).map((f) => text(fieldsOf(f.bytes!).find((v) => v.field === 1)?.bytes)));
  const graph = new Graph(nodes, graphOutputs);
  const rewrites: GraphRewrites = { convAffine: foldableAffine(graph), hardSwish: hardSwish(graph, defaultOpset(modelFields)) };

  const kept = nodes.flatMap((node) => node.replacedBy ?? [node]);
  const read = new Set(kept.flatMap((node) => node.inputs));
  const live = kept.filter((node) => node.opType !== 'Constant' || node.outputs.some((o) => read.has(o) || graphOutputs.has(o)));
  const graphBody = Buffer.concat([...live.map((node) => bytesField(1, node.body)), ...graphFields.filter((f) => f.field !== 1).map((f) => f.raw)]);
  const rewritten = Buffer.concat(modelFields.map((f) => (f === graphField ? bytesField(7, graphBody) : f.raw)));
  return { model: rewritten, rewrites };
}

/** Conv → Mul/Add by a one-element constant read only there: the constant as [C, 1, …], the conv's side first. */
function foldableAffine(graph: Graph): number {
  let count = 0;
  for (const conv of graph.nodes) {
    if (conv.opType !== 'Conv' || conv.domain) continue;
    const weight = graph.tensor(conv.inputs[1]);
    if (!weight || weight.dims.length < 3) continue;
    const shape = [weight.dims[0]!, ...weight.dims.slice(2).map(() => 1)];
    let value = conv.outputs[0]!;
    for (let next = graph.soleReader(value); next && (next.opType === 'Mul' || next.opType === 'Add') && !next.domain; next = graph.soleReader(value)) {
      if (next.inputs.length !== 2) break;
      const constant = next.inputs[0] === value ? next.inputs[1]! : next.inputs[0]!;
      const scalar = graph.scalar(constant);
      const producer = graph.producer(constant);
      if (scalar === undefined || !producer || !graph.soleReader(constant)) break;
      producer.body = constantBody(constant, shape, scalar);
      setInputs(next, [value, constant]);
      value = next.outputs[0]!;
      count++;
    }
  }
  return count;
}

/** x → Add(x, 3) → Clip(0, 6) → Mul(x, ·) → Div(·, 6), each step read only by the next: HardSigmoid(x) · x. */
function hardSwish(graph: Graph, opset: number): number {
  // HardSigmoid came with opset 6.
  if (opset < 6) return 0;
  let count = 0;
  for (const clip of graph.nodes) {
    if (clip.opType !== 'Clip' || clip.domain) continue;
    const [low, high] = clipBounds(graph, clip, opset);
    if (low !== 0 || high !== 6) continue;
    const add = graph.producer(clip.inputs[0]!);
    if (add?.opType !== 'Add' || add.inputs.length !== 2 || graph.soleReader(add.outputs[0]!) !== clip) continue;
    const three = add.inputs.findIndex((i) => graph.scalar(i) === 3);
    if (three < 0) continue;
    const x = add.inputs[1 - three]!;
    const mul = graph.soleReader(clip.outputs[0]!);
    if (mul?.opType !== 'Mul' || mul.inputs.length !== 2 || !mul.inputs.includes(x) || !mul.inputs.includes(clip.outputs[0]!)) continue;
    const div = graph.soleReader(mul.outputs[0]!);
    if (div?.opType !== 'Div' || div.inputs[0] !== mul.outputs[0] || graph.scalar(div.inputs[1]) !== 6) continue;
    const gate = `${div.outputs[0]}/hard_sigmoid`;
    add.replacedBy = [];
    clip.replacedBy = [];
    mul.replacedBy = [];
    div.replacedBy = [
      newNode('HardSigmoid', [x], [gate], [floatAttribute('alpha', 1 / 6), floatAttribute('beta', 0.5)]),
      newNode('Mul', [x, gate], [div.outputs[0]!], []),
    ];
    count++;
  }
  return count;
}

/** Which nodes make and read each value, and the constants' values. */
class Graph {
  private readonly producers = new Map<string, GraphNode>();
  private readonly readers = new Map<string, GraphNode[]>();

  constructor(
    readonly nodes: GraphNode[],
    private readonly graphOutputs: Set<string>,
  ) {
    for (const node of nodes) {
      for (const output of node.outputs) this.producers.set(output, node);
      for (const input of node.inputs) {
        const readers = this.readers.get(input);
        if (readers) readers.push(node);
        else this.readers.set(input, [node]);
      }
    }
  }

  producer(value: string): GraphNode | undefined {
    return this.producers.get(value);
  }

  /** The one node that reads `value`, when nothing else does (the graph's outputs included). */
  soleReader(value: string): GraphNode | undefined {
    const readers = this.readers.get(value);
    return readers?.length === 1 && !this.graphOutputs.has(value) ? readers[0] : undefined;
  }

  /** A Constant node's tensor. */
  tensor(value: string | undefined): { dims: number[]; fields: WireField[] } | undefined {
    const node = value ? this.producers.get(value) : undefined;
    if (node?.opType !== 'Constant' || node.domain) return undefined;
    const attribute = attributes(node).find((a) => a.name === 'value');
    const tensor = attribute?.fields.find((f) => f.field === 5)?.bytes;
    if (!tensor) return undefined;
    const fields = fieldsOf(tensor);
    return { dims: varintsOf(fields, 1), fields };
  }

  /** The value of a one-element float constant. */
  scalar(value: string | undefined): number | undefined {
    const tensor = this.tensor(value);
    if (!tensor || tensor.dims.reduce((n, d) => n * d, 1) !== 1 || varintsOf(tensor.fields, 2)[0] !== FLOAT) return undefined;
    const raw = tensor.fields.find((f) => f.field === 9)?.bytes ?? tensor.fields.find((f) => f.field === 4)?.fixed32 ?? tensor.fields.find((f) => f.field === 4)?.bytes;
    return raw?.length === 4 ? new DataView(raw.buffer, raw.byteOffset, 4).getFloat32(0, true) : undefined;
  }
}

function readNode(body: Uint8Array): GraphNode {
  const fields = fieldsOf(body);
  const strings = (n: number) => fields.filter((f) => f.field === n).map((f) => text(f.bytes));
  return { body, inputs: strings(1), outputs: strings(2), opType: strings(4)[0] ?? '', domain: strings(7)[0] ?? '' };
}

function attributes(node: GraphNode): Array<{ name: string; fields: WireField[] }> {
  return fieldsOf(node.body)
    .filter((f) => f.field === 5 && f.bytes)
    .map((f) => {
      const fields = fieldsOf(f.bytes!);
      return { name: text(fields.find((a) => a.field === 1)?.bytes), fields };
    });
}

/** A Clip's bounds: attributes before opset 11, constant inputs from it on; ±∞ where unset. */
function clipBounds(graph: Graph, clip: GraphNode, opset: number): [number | undefined, number | undefined] {
  if (opset >= 11) {
    const bound = (i: number, unset: number) => (clip.inputs[i] ? graph.scalar(clip.inputs[i]) : unset);
    return [bound(1, -Infinity), bound(2, Infinity)];
  }
  const bound = (name: string, unset: number) => {
    const f = attributes(clip).find((a) => a.name === name)?.fields.find((a) => a.field === 2)?.fixed32;
    return f ? new DataView(f.buffer, f.byteOffset, 4).getFloat32(0, true) : unset;
  };
  return [bound('min', -Infinity), bound('max', Infinity)];
}

/** The default domain's opset the model imports. */
function defaultOpset(modelFields: WireField[]): number {
  for (const f of modelFields) {
    if (f.field !== 8 || !f.bytes) continue;
    const opset = fieldsOf(f.bytes);
    if (text(opset.find((o) => o.field === 1)?.bytes) === '') return varintsOf(opset, 2)[0] ?? 0;
  }
  return 0;
}

function setInputs(node: GraphNode, inputs: string[]): void {
  node.inputs = inputs;
  node.body = Buffer.concat([...inputs.map((i) => bytesField(1, i)), ...fieldsOf(node.body).filter((f) => f.field !== 1).map((f) => f.raw)]);
}

function newNode(opType: string, inputs: string[], outputs: string[], attributeBodies: Uint8Array[]): GraphNode {
  const body = Buffer.concat([
    ...inputs.map((i) => bytesField(1, i)),
    ...outputs.map((o) => bytesField(2, o)),
    bytesField(3, outputs[0]!),
    bytesField(4, opType),
    ...attributeBodies.map((a) => bytesField(5, a)),
  ]);
  return { body, opType, domain: '', inputs, outputs };
}

function floatAttribute(name: string, value: number): Uint8Array {
  return Buffer.concat([bytesField(1, name), floatField(2, value), varintField(20, ATTRIBUTE_FLOAT)]);
}

/** A Constant node giving `value` in the given shape, every element `scalar`. */
function constantBody(output: string, shape: number[], scalar: number): Uint8Array {
  const data = new Uint8Array(4 * shape.reduce((n, d) => n * d, 1));
  const view = new DataView(data.buffer);
  // ONNX stores raw tensor data little-endian.
  for (let at = 0; at < data.length; at += 4) view.setFloat32(at, scalar, true);
  const tensor = Buffer.concat([...shape.map((d) => varintField(1, d)), varintField(2, FLOAT), bytesField(9, data)]);
  const value = Buffer.concat([bytesField(1, 'value'), bytesField(5, tensor), varintField(20, ATTRIBUTE_TENSOR)]);
  return Buffer.concat([bytesField(2, output), bytesField(3, output), bytesField(4, 'Constant'), bytesField(5, value)]);
}
