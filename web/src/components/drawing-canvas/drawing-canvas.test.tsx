import type { DrawingShape } from '@pim/contract';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { setToken } from '../../session/token-store';
import { jsonResponse, renderPage, signedInHandler, stubFetch } from '../../test/render';
import { DrawingCanvas } from './drawing-canvas';
import { LABEL_COLORS } from './label-style';

const IMAGE = '55555555-5555-4555-8555-555555555555';
const image = { uuid: IMAGE, uri: `${window.location.origin}/iiif/3/${IMAGE}`, label: 'f. 1r', width: 400, height: 600 };
/** jsdom lays nothing out: the surface fits the page by its height alone, 1200 / 600 x 0.91. */
const SCALE = 2 * 0.91;
const SAVED: DrawingShape = { id: '66666666-6666-4666-8666-666666666666', kind: 'line', label: 'baseline', points: [[10, 500], [390, 500]] };

function serve(shapes: DrawingShape[] = [SAVED]) {
  const puts: unknown[] = [];
  const fetchMock = stubFetch(signedInHandler(['AUTHENTICATED'], async (url, init) => {
    if (url.pathname === `/api/pim/documentimage/${IMAGE}/drawing`) {
      if (init?.method === 'PUT') {
        const body = JSON.parse(String(init.body)) as { shapes: DrawingShape[] };
        puts.push(body);
        return jsonResponse({ shapes: body.shapes, updated: '2025-01-01T00:00:00.000Z' });
      }
      return jsonResponse({ shapes, updated: shapes.length ? '2024-12-01T00:00:00.000Z' : null });
    }
    if (url.pathname.startsWith(`/iiif/3/${IMAGE}/full/`)) return new Response(new Blob(['jpeg'], { type: 'image/jpeg' }));
    return jsonResponse({ error: 'not_found', message: 'Not found' }, 404);
  }));
  return { fetchMock, puts };
}

/** Clicks the page at these image pixels, as the surface shows it. */
function clickAt(...points: [number, number][]) {
  const svg = screen.getByRole('group', { name: 'Drawing on f. 1r' });
  for (const [x, y] of points) fireEvent.click(svg, { clientX: x * SCALE, clientY: y * SCALE });
}

/** Whether the browser would ask before a reload or close. */
function leavingIsQuestioned(): boolean {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
}

async function openTool() {
  const user = userEvent.setup();
  renderPage(<DrawingCanvas image={image} />);
  await screen.findByRole('group', { name: 'Drawing on f. 1r' });
  screen.getByTestId('drawing-surface').focus();
  return user;
}

describe('DrawingCanvas', () => {
  beforeEach(() => {
    setToken('tok');
    URL.createObjectURL = vi.fn(() => 'blob:page');
    URL.revokeObjectURL = vi.fn();
  });

  it('shows the page from the IIIF Image API with the Authorization header, and the saved shapes', async () => {
    const { fetchMock } = serve();
    await openTool();
    expect(screen.getByRole('img', { name: 'Line 1: Baseline' }).getAttribute('points')).toBe('10,500 390,500');
    await waitFor(() => expect(document.querySelector('image')?.getAttribute('href')).toBe('blob:page'));
    const iiif = fetchMock.mock.calls.find(([input]) => String(input).includes('/iiif/3/'))!;
    expect(String(iiif[0])).toBe(`${image.uri}/full/!400,600/0/default.jpg`);
    expect((iiif[1]!.headers as Record<string, string>).Authorization).toBe('Google tok');
    const svg = screen.getByRole('group', { name: 'Drawing on f. 1r' });
    expect(svg.getAttribute('viewBox')).toBe('0 0 400 600');
    expect(Number(svg.getAttribute('height'))).toBeCloseTo(1092);
    expect(screen.getByText('1 shape')).toBeTruthy();
  });

  it('draws a polygon with clicks and Enter; Ctrl+Z removes it again', async () => {
    serve();
    const user = await openTool();
    clickAt([10, 10], [200, 10], [200, 100]);
    expect(screen.getByRole('status').textContent).toBe('Drawing a polygon (Region): 3 points. Click to add points, Enter to finish.');
    await user.keyboard('{Enter}');
    const polygon = screen.getByRole('img', { name: 'Polygon 2: Region' });
    expect(polygon.tagName).toBe('polygon');
    expect(polygon.getAttribute('points')).toBe('10,10 200,10 200,100');
    expect(screen.getByText('Unsaved changes')).toBeTruthy();

    await user.keyboard('{Control>}z{/Control}');
    expect(screen.queryByRole('img', { name: 'Polygon 2: Region' })).toBeNull();
    expect(screen.getByRole('img', { name: 'Line 1: Baseline' })).toBeTruthy();
    await user.keyboard('{Meta>}z{/Meta}');
    expect(screen.queryByRole('img', { name: 'Line 1: Baseline' })).toBeNull();
  });

  it('says what a shape still needs, takes back points with Backspace and drops the shape with Escape', async () => {
    serve([]);
    const user = await openTool();
    clickAt([10, 10], [20, 20]);
    await user.keyboard('{Enter}');
    expect(screen.getByRole('status').textContent).toBe('A polygon needs at least 3 points: click to add one.');
    await user.keyboard('{Backspace}');
    expect(screen.getByRole('status').textContent).toContain('1 point.');
    await user.keyboard('{Escape}');
    expect(screen.queryByTestId('draft-shape')).toBeNull();
    expect(screen.getByText('0 shapes')).toBeTruthy();
  });

  it('saves the whole drawing with the chosen kinds and classes, says so, and asks before leaving unsaved shapes', async () => {
    const { puts } = serve();
    const user = await openTool();
    await user.click(screen.getByRole('radio', { name: 'Marginalia' }));
    await user.click(screen.getByText('Line'));
    screen.getByTestId('drawing-surface').focus();
    clickAt([300, 40], [380.4, 44.6]);
    await user.keyboard('{Enter}');
    expect(screen.getByRole('img', { name: 'Line 2: Marginalia' })).toBeTruthy();
    expect(leavingIsQuestioned()).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Drawing saved: 2 shapes.')).toBeTruthy();
    expect(puts).toHaveLength(1);
    const { shapes } = puts[0] as { shapes: DrawingShape[] };
    expect(shapes).toEqual([SAVED, { id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/), kind: 'line', label: 'marginalia', points: [[300, 40], [380, 45]] }]);
    expect(screen.queryByText('Unsaved changes')).toBeNull();
    expect(leavingIsQuestioned()).toBe(false);
  });

  it('offers the six label classes, Region first, and draws each in its own colour', async () => {
    serve();
    const user = await openTool();
    expect(screen.getAllByRole('radio').map((r) => r.closest('div')!.textContent)).toEqual(
      expect.arrayContaining(['Text line', 'Baseline', 'Region', 'Marginalia', 'Decoration', 'Page number']),
    );
    expect((screen.getByRole('radio', { name: 'Region' }) as HTMLInputElement).checked).toBe(true);
    expect(new Set(Object.values(LABEL_COLORS)).size).toBe(6);
    clickAt([10, 10], [200, 10], [200, 100]);
    await user.keyboard('{Enter}');
    expect(screen.getByRole('img', { name: 'Polygon 2: Region' }).getAttribute('stroke')).toBe(LABEL_COLORS.region);
    expect(screen.getByRole('img', { name: 'Line 1: Baseline' }).getAttribute('stroke')).toBe(LABEL_COLORS.baseline);
  });
});
