/**
 * Two sequences of symbol ids below `size`: the index of the bit-parallel match table, so it
 * stays small (below 0x10000 plus the distinct astral characters) rather than all of Unicode.
 * Only the first `aLength` and `bLength` ids count (the arrays may be longer scratch buffers:
 * short comparisons come by the thousand, and a typed-array view per call costs more than the
 * comparison of two short lines).
 */
export interface EncodedPair {
  a: Int32Array;
  aLength: number;
  b: Int32Array;
  bLength: number;
  size: number;
}

// A BMP code point is its own id, so the common case needs no lookup; astral code points (rare:
// e.g. mathematical letters such as 𝔄) are numbered from 0x10000 in order of appearance.
const BMP = 0x10000;
let scratchA = new Int32Array(256);
let scratchB = new Int32Array(256);
const astralIds = new Map<number, number>();

/**
 * Splits each string into code points (a surrogate pair is one symbol; a lone surrogate is one
 * too) and numbers them. The result lives in scratch buffers: use it before the next call.
 */
export function encodeStrings(a: string, b: string): EncodedPair {
  if (scratchA.length < a.length) scratchA = new Int32Array(Math.max(a.length, scratchA.length * 2));
  if (scratchB.length < b.length) scratchB = new Int32Array(Math.max(b.length, scratchB.length * 2));
  astralIds.clear();
  const aLength = encodeString(a, scratchA, astralIds);
  const bLength = encodeString(b, scratchB, astralIds);
  return { a: scratchA, aLength, b: scratchB, bLength, size: BMP + astralIds.size };
}

/** Writes the ids of the code points of `text` into `out`; returns how many. */
function encodeString(text: string, out: Int32Array, astral: Map<number, number>): number {
  let count = 0;
  for (let i = 0, length = text.length; i < length; i += 1) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < length) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        out[count++] = astralId(astral, ((unit - 0xd800) << 10) + (low - 0xdc00) + BMP);
        i += 1;
        continue;
      }
    }
    out[count++] = unit;
  }
  return count;
}

function astralId(astral: Map<number, number>, codePoint: number): number {
  let id = astral.get(codePoint);
  if (id === undefined) {
    id = BMP + astral.size;
    astral.set(codePoint, id);
  }
  return id;
}

/** Numbers the symbols of two sequences of any values that compare with SameValueZero. */
export function encodeValues<T>(a: readonly T[], b: readonly T[]): EncodedPair {
  const ids = new Map<T, number>();
  const encode = (values: readonly T[]) => {
    const out = new Int32Array(values.length);
    values.forEach((value, i) => {
      let id = ids.get(value);
      if (id === undefined) {
        id = ids.size;
        ids.set(value, id);
      }
      out[i] = id;
    });
    return out;
  };
  const ea = encode(a);
  const eb = encode(b);
  return { a: ea, aLength: ea.length, b: eb, bLength: eb.length, size: ids.size };
}

/** The number of Unicode code points of a string (a surrogate pair counts once). */
export function codePointLength(text: string): number {
  let count = text.length;
  for (let i = 0; i + 1 < text.length; i += 1) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        count -= 1;
        i += 1;
      }
    }
  }
  return count;
}
