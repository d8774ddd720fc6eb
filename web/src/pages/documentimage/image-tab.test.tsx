import type { TranscriptionLayout } from '@pim/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { LAYOUT_COLORS } from '../../components/layout-overlay/layout-style';
import { renderApp } from '../../test/render';
import { IMAGE, imageServer, T1, T2, transcription } from './comparison/fixtures.test-support';

/**
 * OpenSeadragon as far as the overlay uses it: its handlers are kept to be called as the viewer
 * would, an overlay is put into the viewer's element, and the image fills the viewer one to one,
 * so a point of the viewer is an image pixel.
 */
const osd = vi.hoisted(() => ({ handlers: new Map<string, (event: unknown) => void>() }));
vi.mock('openseadragon', () => ({
  default: vi.fn((options: { element: HTMLElement }) => ({
    destroy: vi.fn(),
    viewport: {},
    addHandler: (name: string, handler: (event: unknown) => void) => osd.handlers.set(name, handler),
    addOverlay: ({ element }: { element: HTMLElement }) => options.element.appendChild(element),
    world: { getItemAt: () => ({ getBounds: () => ({}), viewerElementToImageCoordinates: (p: { x: number; y: number }) => p }) },
  })),
}));

const MUFI = 'aͤ ꝑ ꝓ ꝰ \uF1AC';

const NEWEST: TranscriptionLayout = {
  transcriptionId: T2,
  width: 2000,
  height: 3000,
  regions: [
    {
      id: 'r1',
      type: 'paragraph',
      coords: [[50, 50], [1950, 50], [1950, 600], [50, 600]],
      lines: [
        { index: 0, id: 'l1', text: MUFI, coords: [[100, 100], [1900, 100], [1900, 200], [100, 200]], baseline: [[100, 190], [1900, 190]] },
        // Drawn by its baseline alone.
        { index: 1, id: 'l2', text: 'Jtem ſo hat', coords: null, baseline: [[100, 400], [1900, 400]] },
      ],
    },
  ],
  readingOrder: [0, 1],
};
const OLDER: TranscriptionLayout = {
  transcriptionId: T1,
  width: 2000,
  height: 3000,
  regions: [{ id: null, type: null, coords: null, lines: [{ index: 0, id: null, text: 'Older reading', coords: [[0, 0], [10, 0], [10, 10]], baseline: null }] }],
  readingOrder: [0],
};

function serve() {
  imageServer(
    [transcription(T1, 'Older reading', { transcriber: 'Kraken' }), transcription(T2, MUFI, { transcriber: 'eScriptorium', sourceFileName: '1.xml' })],
    [],
    [OLDER, NEWEST],
  );
}

/** The viewer has opened the image: the overlay goes over it. */
async function openImage() {
  await waitFor(() => expect(osd.handlers.has('open')).toBe(true));
  act(() => osd.handlers.get('open')!({}));
}

const lineShapes = () => screen.getAllByRole('img', { name: /^Layout line/ });
const panel = () => screen.getByTestId('layout-line-panel');

describe("the image tab's layout", () => {
  beforeEach(() => {
    osd.handlers.clear();
    URL.createObjectURL = vi.fn(() => 'blob:page');
    URL.revokeObjectURL = vi.fn();
  });

  it("draws the newest transcription's regions, lines and baselines over the image, each in its colour", async () => {
    serve();
    renderApp(`/documentimage?uuid=${IMAGE}`);
    await openImage();
    const overlay = screen.getByTestId('viewer-overlay');
    expect(overlay.closest('[data-testid="image-viewer"]')).toBeTruthy();
    expect(overlay.getAttribute('viewBox')).toBe('0 0 2000 3000');
    expect(await screen.findAllByRole('img', { name: /^Layout line/ })).toHaveLength(2);
    expect(lineShapes().map((shape) => shape.getAttribute('aria-label'))).toEqual([`Layout line 1: ${MUFI}`, 'Layout line 2: Jtem ſo hat']);
    expect(overlay.querySelector('[data-region="r1"]')!.getAttribute('stroke')).toBe(LAYOUT_COLORS.region);
    expect(lineShapes()[0]!.querySelector('polygon')!.getAttribute('stroke')).toBe(LAYOUT_COLORS.line);
    expect(lineShapes()[0]!.querySelector('polyline')!.getAttribute('stroke')).toBe(LAYOUT_COLORS.baseline);
    expect(new Set(Object.values(LAYOUT_COLORS)).size).toBe(3);
    expect(within(screen.getByRole('group', { name: 'Colours of the layout' })).getByText('2 lines')).toBeTruthy();
  });

  it('says which line the pointer is on, and keeps a clicked one', async () => {
    const user = userEvent.setup();
    serve();
    renderApp(`/documentimage?uuid=${IMAGE}`);
    await openImage();
    expect(within(await screen.findByTestId('layout-line-panel')).getByText('Point at a line to read it; click it to keep it here.')).toBeTruthy();

    await user.hover(lineShapes()[1]!);
    expect(panel().textContent).toBe('Line 2 of 2Jtem ſo hat');
    await user.unhover(lineShapes()[1]!);
    expect(panel().textContent).not.toContain('Jtem');

    // A click inside the first line's outline keeps it; one near no line lets it go.
    act(() => osd.handlers.get('canvas-click')!({ quick: true, position: { x: 900, y: 150 } }));
    expect(within(panel()).getByTestId('layout-line-text').textContent).toBe(MUFI);
    expect(lineShapes()[0]!.querySelector('polygon')!.getAttribute('fill-opacity')).toBe('0.28');
    // A drag is not a click.
    act(() => osd.handlers.get('canvas-click')!({ quick: false, position: { x: 900, y: 2900 } }));
    expect(within(panel()).getByTestId('layout-line-text').textContent).toBe(MUFI);
    // Near the second line's baseline (within 1% of the page's height).
    act(() => osd.handlers.get('canvas-click')!({ quick: true, position: { x: 900, y: 420 } }));
    expect(within(panel()).getByTestId('layout-line-text').textContent).toBe('Jtem ſo hat');
    act(() => osd.handlers.get('canvas-click')!({ quick: true, position: { x: 900, y: 2900 } }));
    expect(within(panel()).queryByTestId('layout-line-text')).toBeNull();
  });

  it('switches the layout off and on, and draws the layout of another transcription on request', async () => {
    const user = userEvent.setup();
    serve();
    const { router } = renderApp(`/documentimage?uuid=${IMAGE}`);
    await openImage();
    expect(await screen.findAllByRole('img', { name: /^Layout line/ })).toHaveLength(2);

    await user.click(screen.getByRole('switch', { name: 'Show layout' }));
    expect(screen.queryAllByRole('img', { name: /^Layout line/ })).toHaveLength(0);
    expect(screen.queryByTestId('layout-line-panel')).toBeNull();
    expect(router.state.location.search).toContain('hidelayout=1');
    await user.click(screen.getByRole('switch', { name: 'Show layout' }));
    expect(await screen.findAllByRole('img', { name: /^Layout line/ })).toHaveLength(2);

    await user.click(screen.getByRole('textbox', { name: 'Layout of' }));
    await user.click(await screen.findByRole('option', { name: 'PAGE · Kraken' }));
    expect(await screen.findByRole('img', { name: 'Layout line 1: Older reading' })).toBeTruthy();
    expect(lineShapes()).toHaveLength(1);
    expect(router.state.location.search).toContain(`layout=${T1}`);
  });

  it('shows the layout under the drawing for reference: the clicks still draw', async () => {
    const user = userEvent.setup();
    serve();
    renderApp(`/documentimage?uuid=${IMAGE}&view=draw`);
    const surface = await screen.findByRole('group', { name: 'Drawing on f. 1r' });
    const reference = await within(surface).findByTestId('layout-reference');
    expect(reference.getAttribute('pointer-events')).toBe('none');
    expect(reference.querySelectorAll('[data-line]')).toHaveLength(2);
    // The user's shapes are drawn after, so over, the layout and are not part of it.
    await user.click(surface);
    expect(screen.getByText(/Drawing a polygon \(Region\): 1 point/)).toBeTruthy();
    expect(reference.compareDocumentPosition(screen.getByTestId('draft-shape')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(reference.contains(screen.getByTestId('draft-shape'))).toBe(false);
  });

  it("opens the image with a transcription's layout from the transcription's tab", async () => {
    const user = userEvent.setup();
    serve();
    const { router } = renderApp(`/documentimage?uuid=${IMAGE}&tab=transcription-${T1}`);
    await user.click(await screen.findByRole('button', { name: 'Show its layout on the image' }));
    expect(router.state.location.search).toBe(`?uuid=${IMAGE}&layout=${T1}`);
    await openImage();
    expect(await screen.findByRole('img', { name: 'Layout line 1: Older reading' })).toBeTruthy();
  });
});
