/** Title properties that are lengths along y (hOCR: x_size is the line's height, not a width). */
const HEIGHTS = new Set(['x_size', 'x_descenders', 'x_ascenders']);

const round = (n: number, digits = 0) => Number(n.toFixed(digits));

/**
 * Tesseract's hOCR of a prepared page, told about the image it belongs to: the page's `image`
 * is the image's own file name (Tesseract wrote the path of its temporary copy; with the real
 * name the file attaches to its image when uploaded again), and every box, baseline and height
 * is scaled back to the image's pixels when Tesseract read a downscaled copy. Only `title`
 * attributes change, so the text is untouched.
 */
export function rewriteHocr(xml: string, page: { imageName: string; scaleX: number; scaleY: number }): string {
  return xml.replace(/\btitle=(?:'([^']*)'|"([^"]*)")/g, (_match, single: string | undefined, double: string | undefined) => {
    const quote = single !== undefined ? "'" : '"';
    const title = rewriteTitle(single ?? double ?? '', page);
    return `title=${quote}${escapeAttribute(title, quote)}${quote}`;
  });
}

function rewriteTitle(title: string, page: { imageName: string; scaleX: number; scaleY: number }): string {
  const { scaleX: sx, scaleY: sy } = page;
  const properties = unescapeAttribute(title).match(/(?:"[^"]*"|[^;"])+/g) ?? [];
  return properties
    .map((raw) => {
      const property = raw.trim();
      const [name = '', ...values] = property.split(/\s+/);
      const numbers = values.map(Number);
      if (name === 'image') return `image "${page.imageName.replace(/"/g, "'")}"`;
      if (name === 'bbox' && numbers.length === 4 && numbers.every(Number.isFinite)) {
        return `bbox ${numbers.map((n, i) => Math.round(n * (i % 2 === 0 ? sx : sy))).join(' ')}`;
      }
      if (name === 'baseline' && numbers.length === 2 && numbers.every(Number.isFinite)) {
        return `baseline ${round((numbers[0]! * sy) / sx, 3)} ${Math.round(numbers[1]! * sy)}`;
      }
      if (HEIGHTS.has(name) && numbers.length === 1 && Number.isFinite(numbers[0])) return `${name} ${round(numbers[0]! * sy, 2)}`;
      return property;
    })
    .filter(Boolean)
    .join('; ');
}

function escapeAttribute(value: string, quote: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(quote === "'" ? /'/g : /"/g, quote === "'" ? '&apos;' : '&quot;');
}

/** The references Tesseract writes in attributes (it escapes &, <, > and quotes in file names). */
function unescapeAttribute(value: string): string {
  return value.replace(/&(lt|gt|quot|apos|amp);/g, (_m, name: string) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[name]!);
}
