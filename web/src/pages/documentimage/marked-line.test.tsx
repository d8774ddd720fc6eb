import type { SimpleTextLine, TranscriptionLayout } from '@pim/contract';
import { act, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MARKED_LINE_COLOR } from '../../components/layout-overlay/layout-style';
import { renderApp } from '../../test/render';
import { IMAGE, imageServer, T1, T2, transcription } from './comparison/fixtures.test-support';

/**
 * OpenSeadragon as far as the viewer uses it to bring a part of the image into view: image
 * rectangles pass through unchanged, so the test sees the rectangle the viewer was fitted to.
 */
const osd = vi.hoisted(() => ({ handlers: new Map<string, (event: unknown) => void>(), fitted: [] as unknown[] }));
vi.mock('openseadragon', () => ({
  default: vi.fn((options: { element: HTMLElement }) => ({
    destroy: vi.fn(),
    viewport: { fitBoundsWithConstraints: (rect: unknown) => osd.fitted.push(rect) },
    addHandler: (name: string, handler: (event: unknown) => void) => {
      const before = osd.handlers.get(name);
      osd.handlers.set(name, (event) => {
        before?.(event);
        handler(event);
      });
    },
    addOverlay: ({ element }: { element: HTMLElement }) => options.element.appendChild(element),
    world: {
      getItemAt: () => ({
        getBounds: () => ({}),
        imageToViewportRectangle: (x: number, y: number, w: number, h: number) => ({ x, y, w, h }),
      }),
    },
  })),
}));

const LINE = 'd0000000-0000-4000-8000-000000000003';

/** The third line of the older transcription, as the search found it. */
function foundLine(overrides: Partial<SimpleTextLine> = {}): SimpleTextLine {
  return {
    uuid: LINE,
    text: 'geſchriben an dem tag',
    groundTruth: null,
    confidence: null,
    lowestConf: null,
    documentImageId: IMAGE,
    documentImageLabel: 'f. 1r',
    transcriptionId: T1,
    lineIndex: 2,
    region: { x: 100, y: 400, w: 1000, h: 80 },
    updated: '2024-03-01T10:00:00.000Z',
    ...overrides,
  };
}

const layoutOf = (transcriptionId: string): TranscriptionLayout => ({
  transcriptionId,
  width: 2000,
  height: 3000,
  regions: [{ id: 'r', type: null, coords: null, lines: [{ index: 0, id: 'l', text: `a line of ${transcriptionId}`, coords: [[0, 0], [10, 0], [10, 10]], baseline: null }] }],
  readingOrder: [0],
});

function serve(line: SimpleTextLine | null) {
  return imageServer(
    [transcription(T1, 'Older reading', { transcriber: 'Kraken' }), transcription(T2, 'Newer reading', { transcriber: 'Tesseract' })],
    [],
    [layoutOf(T1), layoutOf(T2)],
    line ? [line] : [],
  );
}

async function openImage() {
  await waitFor(() => expect(osd.handlers.has('open')).toBe(true));
  act(() => osd.handlers.get('open')!({}));
}

describe('the image page with a line from the search (line=)', () => {
  beforeEach(() => {
    osd.handlers.clear();
    osd.fitted = [];
  });

  it("marks the line's box in its own colour, brings it into view, shows its text and the layout it belongs to", async () => {
    serve(foundLine());
    renderApp(`/documentimage?uuid=${IMAGE}&line=${LINE}`);
    await openImage();
    const shape = await screen.findByRole('img', { name: 'Found line 3: geſchriben an dem tag' });
    const edges = [...shape.querySelectorAll('rect')];
    expect(edges.map((rect) => ['x', 'y', 'width', 'height'].map((a) => rect.getAttribute(a)).join(','))).toEqual(['100,400,1000,80', '100,400,1000,80']);
    expect(edges.at(-1)!.getAttribute('stroke')).toBe(MARKED_LINE_COLOR);
    // Drawn above the layout's own shapes.
    expect(shape.closest('[data-testid="viewer-overlay"]')!.lastElementChild).toBe(shape);

    const panel = screen.getByTestId('marked-line-panel');
    expect(panel.textContent).toBe('Line 3, found by the searchgeſchriben an dem tag');

    // The line is the older transcription's: its layout is drawn, not the newest's.
    expect(await screen.findByRole('img', { name: `Layout line 1: a line of ${T1}` })).toBeTruthy();

    // The line with a margin at its ends and two line heights above and below.
    expect(osd.fitted.at(-1)).toEqual({ x: 0, y: 240, w: 1200, h: 400 });
  });

  it('draws no mark and says so when the line cannot be loaded', async () => {
    serve(null);
    renderApp(`/documentimage?uuid=${IMAGE}&line=${LINE}`);
    expect(await screen.findByText('The line found by the search could not be loaded.')).toBeTruthy();
    expect(screen.queryByTestId('marked-line')).toBeNull();
    await openImage();
    expect(osd.fitted).toEqual([]);
  });

  it("marks nothing for a line of another image", async () => {
    serve(foundLine({ documentImageId: '66666666-6666-4666-8666-666666666666' }));
    renderApp(`/documentimage?uuid=${IMAGE}&line=${LINE}`);
    expect(await screen.findByText('The line found by the search belongs to another image.')).toBeTruthy();
    expect(screen.queryByTestId('marked-line-panel')).toBeNull();
  });
});
