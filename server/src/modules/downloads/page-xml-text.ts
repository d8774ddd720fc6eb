/** Characters XML 1.0 cannot carry at all; everything else is kept exactly. */
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const POINTS = /^\d+,\d+( \d+,\d+)+$/;

export function escapeText(s: string): string {
  // \r is written as a reference: a parser would otherwise turn it into \n.
  return s.replace(NOT_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#13;');
}

export function escapeAttr(s: string): string {
  return escapeText(s).replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\t/g, '&#9;');
}

/** ` name="value"`, or nothing when there is no value. */
export function optionalAttr(name: string, value: string | null | undefined): string {
  return value === null || value === undefined ? '' : ` ${name}="${escapeAttr(value)}"`;
}

/** Points as PAGE's PointsType wants them ("x,y x,y", at least two), or null when they are not. */
export function validPoints(points: string | null): string | null {
  const normal = points?.trim().replace(/\s+/g, ' ') ?? '';
  return POINTS.test(normal) ? normal : null;
}
