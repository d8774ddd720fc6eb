/**
 * Tiny ONNX models for the tests, written byte by byte as onnx.proto defines them (protobuf wire
 * format: a key of field number and wire type, then a varint, 4 bytes or a length-delimited body),
 * not copied from real models. Only what the tests need: float tensors, nodes with int and ints
 * attributes, int64 initializers, and dimensions that are numbers or named (symbolic).
 */

/** A dimension: a fixed size, or a name that stays open (the batch, say). */
export type OnnxDim = number | string;

export interface OnnxValue {
  name: string;
  /** ONNX's element type: 1 float32 (the default), 7 int64. */
  elemType?: number;
  shape: OnnxDim[];
}

export interface OnnxNode {
  opType: string;
  inputs: string[];
  outputs: string[];
  attributes?: Record<string, number | number[]>;
}

export interface OnnxGraph {
  inputs: OnnxValue[];
  outputs: OnnxValue[];
  nodes: OnnxNode[];
  /** Constant int64 tensors (shapes, axes) by name. */
  int64Initializers?: Record<string, number[]>;
  /** The default opset (13: ReduceMean's axes still an attribute). */
  opset?: number;
}

const WIRE_VARINT = 0;
const WIRE_BYTES = 2;

function varint(value: number | bigint): Buffer {
  // int64 fields: a negative value is written as its 64-bit two's complement.
  let v = BigInt.asUintN(64, BigInt(value));
  const bytes: number[] = [];
  while (v >= 0x80n) {
    bytes.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  bytes.push(Number(v));
  return Buffer.from(bytes);
}

const key = (field: number, wire: number) => varint((field << 3) | wire);
const intField = (field: number, value: number) => Buffer.concat([key(field, WIRE_VARINT), varint(value)]);
const bytesField = (field: number, body: Buffer) => Buffer.concat([key(field, WIRE_BYTES), varint(body.length), body]);
const stringField = (field: number, text: string) => bytesField(field, Buffer.from(text, 'utf8'));
const messages = (field: number, bodies: Buffer[]) => Buffer.concat(bodies.map((b) => bytesField(field, b)));

const ATTRIBUTE_INT = 2;
const ATTRIBUTE_INTS = 7;
const ELEM_FLOAT = 1;
const ELEM_INT64 = 7;

/** TensorShapeProto.Dimension: dim_value (1) or dim_param (2). */
const dimension = (dim: OnnxDim) => (typeof dim === 'number' ? intField(1, dim) : stringField(2, dim));

/** ValueInfoProto: name (1), type (2) = TypeProto { tensor_type (1) = { elem_type (1), shape (2) } }. */
function valueInfo({ name, elemType = ELEM_FLOAT, shape }: OnnxValue): Buffer {
  const tensorShape = messages(1, shape.map(dimension));
  const tensorType = Buffer.concat([intField(1, elemType), bytesField(2, tensorShape)]);
  return Buffer.concat([stringField(1, name), bytesField(2, bytesField(1, tensorType))]);
}

/** AttributeProto: name (1), i (3), ints (8, one key per value), type (20). */
function attribute(name: string, value: number | number[]): Buffer {
  if (typeof value === 'number') return Buffer.concat([stringField(1, name), intField(3, value), intField(20, ATTRIBUTE_INT)]);
  return Buffer.concat([stringField(1, name), ...value.map((v) => intField(8, v)), intField(20, ATTRIBUTE_INTS)]);
}

/** NodeProto: input (1), output (2), name (3), op_type (4), attribute (5). */
function node({ opType, inputs, outputs, attributes = {} }: OnnxNode, index: number): Buffer {
  return Buffer.concat([
    ...inputs.map((i) => stringField(1, i)),
    ...outputs.map((o) => stringField(2, o)),
    stringField(3, `${opType.toLowerCase()}_${index}`),
    stringField(4, opType),
    messages(5, Object.entries(attributes).map(([name, value]) => attribute(name, value))),
  ]);
}

/** TensorProto of int64: dims (1), data_type (2), int64_data (7), name (8). */
function int64Tensor(name: string, values: number[]): Buffer {
  return Buffer.concat([intField(1, values.length), intField(2, ELEM_INT64), ...values.map((v) => intField(7, v)), stringField(8, name)]);
}

/**
 * A ModelProto: ir_version (1) 8, producer_name (2), graph (7) = GraphProto { node (1), name (2),
 * initializer (5), input (11), output (12) }, opset_import (8) = { domain (1) "", version (2) }.
 */
export function onnxModel(graph: OnnxGraph): Buffer {
  const initializers = Object.entries(graph.int64Initializers ?? {}).map(([name, values]) => int64Tensor(name, values));
  const body = Buffer.concat([
    messages(1, graph.nodes.map(node)),
    stringField(2, 'pim_test_graph'),
    messages(5, initializers),
    messages(11, graph.inputs.map(valueInfo)),
    messages(12, graph.outputs.map(valueInfo)),
  ]);
  return Buffer.concat([
    intField(1, 8),
    stringField(2, 'pim tests'),
    bytesField(7, body),
    bytesField(8, Buffer.concat([stringField(1, ''), intField(2, graph.opset ?? 13)])),
  ]);
}

/**
 * A feature extractor that gives the mean of each pixel row of a grey line: input
 * [batch, 1, height, width], ReduceMean over the width, output [batch, height].
 */
export function rowMeanModel(height: OnnxDim, width: OnnxDim): Buffer {
  return onnxModel({
    inputs: [{ name: 'line', shape: ['batch', 1, height, width] }],
    outputs: [{ name: 'features', shape: ['batch', height] }],
    nodes: [
      { opType: 'ReduceMean', inputs: ['line'], outputs: ['means'], attributes: { axes: [3], keepdims: 0 } },
      { opType: 'Flatten', inputs: ['means'], outputs: ['features'], attributes: { axis: 1 } },
    ],
  });
}
