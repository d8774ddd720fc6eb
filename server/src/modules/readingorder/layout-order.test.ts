import { describe, expect, it } from 'vitest';
import { reorderLayout } from './layout-order.js';

/** A rectangle as PAGE points. */
const rect = (left: number, top: number, right: number, bottom: number) => `${left},${top} ${right},${top} ${right},${bottom} ${left},${bottom}`;

/** A region of `count` lines stacked in its box, each with a baseline; ids `<id>.1`, `<id>.2`, ... */
function region(id: string, [left, top, right, bottom]: number[], count = 2, extra: Record<string, unknown> = {}) {
  const step = (bottom! - top!) / count;
  const lines = Array.from({ length: count }, (_, i) => {
    const y = top! + i * step;
    return { id: `${id}.${i + 1}`, coords: rect(left!, y, right!, y + step - 2), baseline: `${left},${y + step - 6} ${right},${y + step - 6}`, text: `${id} line ${i + 1}` };
  });
  return { id, type: 'paragraph', coords: rect(left!, top!, right!, bottom!), lines, ...extra };
}

const regionIds = (layout: Record<string, unknown>) => (layout.regions as { id: string }[]).map((r) => r.id);
const lineIds = (layout: Record<string, unknown>) => (layout.regions as { lines: { id: string }[] }[]).flatMap((r) => r.lines.map((l) => l.id));

/** A two-column page: a heading across both, two paragraphs in each column, a footnote across both. */
function twoColumnPage() {
  return [
    region('heading', [100, 50, 900, 120], 1),
    region('left1', [100, 150, 480, 500], 3),
    region('left2', [100, 520, 480, 900], 3),
    region('right1', [520, 150, 900, 700], 4),
    region('right2', [520, 720, 900, 900], 2),
    region('footnote', [100, 950, 900, 1000], 1),
  ];
}
const READ = ['heading', 'left1', 'left2', 'right1', 'right2', 'footnote'];

describe('reading order from geometry', () => {
  it('reads a two-column page column by column, a heading across both first and a footnote across both last', () => {
    const regions = twoColumnPage();
    const shuffled = [regions[3], regions[5], regions[1], regions[0], regions[4], regions[2]];
    const result = reorderLayout({ page: {}, regions: shuffled }, 'page');
    expect(regionIds(result.layout)).toEqual(READ);
    expect(result.changed).toBe(true);
  });

  it('keeps the columns apart where their paragraph breaks are level', () => {
    const regions = [region('r2', [520, 150, 900, 500]), region('l2', [100, 520, 480, 900]), region('r3', [520, 520, 900, 900]), region('l1', [100, 150, 480, 500])];
    expect(regionIds(reorderLayout({ page: {}, regions }, 'alto').layout)).toEqual(['l1', 'l2', 'r2', 'r3']);
  });

  it('keeps columns apart whose outlines overlap by a few pixels', () => {
    const regions = [region('right', [470, 150, 900, 900]), region('left', [100, 150, 490, 900])];
    expect(regionIds(reorderLayout({ page: {}, regions }, 'hocr').layout)).toEqual(['left', 'right']);
  });

  it('reads the columns from the right when the PAGE file says the page is right-to-left', () => {
    const regions = twoColumnPage();
    const result = reorderLayout({ page: { readingDirection: 'right-to-left' }, regions }, 'page');
    expect(regionIds(result.layout)).toEqual(['heading', 'right1', 'right2', 'left1', 'left2', 'footnote']);
    const byRegions = reorderLayout({ page: {}, regions: regions.map((r) => ({ ...r, readingDirection: 'right-to-left' })) }, 'page');
    expect(regionIds(byRegions.layout)).toEqual(regionIds(result.layout));
  });

  it('puts lines top to bottom by their baselines, and reads a region written in two columns column by column', () => {
    const single = region('p', [100, 100, 900, 500], 4);
    const reversed = { ...single, lines: [...single.lines].reverse() };
    expect(lineIds(reorderLayout({ page: {}, regions: [reversed] }, 'page').layout)).toEqual(['p.1', 'p.2', 'p.3', 'p.4']);

    const left = region('l', [100, 100, 480, 500], 3).lines;
    const right = region('r', [520, 100, 900, 500], 3).lines;
    const interleaved = { id: 'both', type: 'paragraph', coords: rect(100, 100, 900, 500), lines: [left[0], right[0], left[1], right[1], left[2], right[2]] };
    expect(lineIds(reorderLayout({ page: {}, regions: [interleaved] }, 'page').layout)).toEqual(['l.1', 'l.2', 'l.3', 'r.1', 'r.2', 'r.3']);
  });

  it('reads a lone word beside a region\'s first line with that line, not after the whole column', () => {
    const body = region('body', [100, 100, 800, 500], 4);
    const title = { id: 'title', coords: rect(850, 100, 950, 195), baseline: '850,180 950,180', text: 'title' };
    const lines = [...body.lines.slice(0, 1), title, ...body.lines.slice(1)].reverse();
    expect(lineIds(reorderLayout({ page: {}, regions: [{ ...body, coords: rect(100, 100, 950, 500), lines }] }, 'page').layout)).toEqual([
      'title',
      'body.1',
      'body.2',
      'body.3',
      'body.4',
    ]);
  });

  it('reads a drop capital before the paragraph it begins, whether PAGE types it or it lies at the paragraph\'s start', () => {
    const paragraph = region('para', [100, 500, 900, 900], 4);
    const drop = region('drop', [102, 502, 180, 600], 1);
    expect(regionIds(reorderLayout({ page: {}, regions: [paragraph, { ...drop, type: 'drop-capital' }] }, 'page').layout)).toEqual(['drop', 'para']);
    expect(regionIds(reorderLayout({ page: {}, regions: [paragraph, { ...drop, type: 'text' }] }, 'alto').layout)).toEqual(['drop', 'para']);
  });

  it('places a region without outline by its lines, and keeps regions and lines without any geometry in their order', () => {
    const top = region('top', [100, 100, 900, 300]);
    const outlineless = { ...region('below', [100, 400, 900, 600]), coords: null };
    const nowhere = { id: 'nowhere', type: 'paragraph', coords: null, lines: [{ id: 'n.2', text: 'b' }, { id: 'n.1', text: 'a' }] };
    const result = reorderLayout({ page: {}, regions: [nowhere, outlineless, top] }, 'page');
    expect(regionIds(result.layout)).toEqual(['top', 'below', 'nowhere']);
    expect(lineIds(result.layout).slice(-2)).toEqual(['n.2', 'n.1']);
  });

  it('says where each text line moves and gives the clean text in the new order', () => {
    const a = region('a', [100, 100, 900, 300]);
    const b = region('b', [100, 400, 900, 600]);
    const result = reorderLayout({ page: {}, regions: [b, a] }, 'hocr');
    // Before: b.1 b.2 a.1 a.2; after: a.1 a.2 b.1 b.2.
    expect(result.lineMoves).toEqual([
      { from: 2, to: 0 },
      { from: 3, to: 1 },
      { from: 0, to: 2 },
      { from: 1, to: 3 },
    ]);
    expect(result.cleanText).toBe('a line 1\na line 2\nb line 1\nb line 2');
    expect(result.layout).not.toHaveProperty('readingOrder');
  });

  it('writes a PAGE layout\'s ReadingOrder as one ordered group of its regions, keeping the group\'s id and caption', () => {
    const regions = twoColumnPage().reverse();
    const previous = { kind: 'unordered', id: 'ro_1', caption: 'Regions reading order', type: null, regionRef: null, index: null, members: [] };
    const result = reorderLayout({ page: {}, regions, readingOrder: previous }, 'page');
    expect(result.layout.readingOrder).toEqual({
      kind: 'ordered',
      id: 'ro_1',
      caption: 'Regions reading order',
      type: null,
      regionRef: null,
      index: null,
      members: READ.map((regionRef, index) => ({ kind: 'region', regionRef, index })),
    });
  });

  it('changes nothing the second time: the order it makes is the order it finds', () => {
    const first = reorderLayout({ page: {}, regions: twoColumnPage().reverse() }, 'page');
    // As jsonb gives it back: the same JSON with its keys in another order.
    const reverseKeys = (v: unknown): unknown =>
      Array.isArray(v) ? v.map(reverseKeys) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).reverse().map(([k, x]) => [k, reverseKeys(x)])) : v;
    const stored = reverseKeys(first.layout);
    const second = reorderLayout(JSON.parse(JSON.stringify(first.layout)), 'page');
    expect(second.changed).toBe(false);
    expect(second.lineMoves).toEqual([]);
    expect(reorderLayout(stored, 'page').changed).toBe(false);
    // A layout in order whose PAGE ReadingOrder says otherwise is changed: the ReadingOrder is rewritten.
    const staleOrder = { ...first.layout, readingOrder: null };
    expect(reorderLayout(staleOrder, 'page')).toMatchObject({ changed: true, lineMoves: [] });
  });
});
