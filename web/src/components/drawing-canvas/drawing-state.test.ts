import type { DrawingShape } from '@pim/contract';
import { describe, expect, it } from 'vitest';
import { drawingReducer, initialDrawingState, type DrawingAction, type DrawingState } from './drawing-state';

const run = (actions: DrawingAction[], from: DrawingState = initialDrawingState()) => actions.reduce(drawingReducer, from);
const points = (...xy: [number, number][]): DrawingAction[] => xy.map((point) => ({ type: 'addPoint', point }));
const saved: DrawingShape = { id: 'a', kind: 'line', label: 'baseline', points: [[1, 1], [9, 1]] };

describe('drawingReducer', () => {
  it('starts with the polygon tool on the region class and nothing drawn', () => {
    expect(initialDrawingState()).toEqual({ shapes: [], draft: [], kind: 'polygon', label: 'region', dirty: false, tooFewPoints: false });
  });

  it('collects clicked points and makes a shape of the chosen kind and label on finish', () => {
    const state = run([{ type: 'setKind', kind: 'line' }, { type: 'setLabel', label: 'baseline' }, ...points([1, 2], [3, 4]), { type: 'finish', id: 'x' }]);
    expect(state.shapes).toEqual([{ id: 'x', kind: 'line', label: 'baseline', points: [[1, 2], [3, 4]] }]);
    expect(state.draft).toEqual([]);
    expect(state.dirty).toBe(true);
  });

  it('takes the kind and label chosen while drawing, not those at the first point', () => {
    const state = run([...points([1, 1], [2, 2], [3, 1]), { type: 'setLabel', label: 'marginalia' }, { type: 'finish', id: 'x' }]);
    expect(state.shapes[0]).toMatchObject({ kind: 'polygon', label: 'marginalia' });
  });

  it('refuses to finish a polygon of two points or a line of one, and says so until the next point', () => {
    const polygon = run([...points([1, 1], [2, 2]), { type: 'finish', id: 'x' }]);
    expect(polygon.shapes).toEqual([]);
    expect(polygon.draft).toHaveLength(2);
    expect(polygon.tooFewPoints).toBe(true);
    expect(run(points([3, 3]), polygon).tooFewPoints).toBe(false);
    const line = run([{ type: 'setKind', kind: 'line' }, ...points([1, 1]), { type: 'finish', id: 'x' }]);
    expect(line.tooFewPoints).toBe(true);
    expect(run([{ type: 'finish', id: 'x' }])).toEqual(initialDrawingState());
  });

  it('Backspace takes back a point, Escape drops the shape being drawn', () => {
    const drawing = run(points([1, 1], [2, 2], [3, 3]));
    expect(run([{ type: 'removeLastPoint' }], drawing).draft).toEqual([[1, 1], [2, 2]]);
    expect(run([{ type: 'cancel' }], drawing).draft).toEqual([]);
  });

  it('Ctrl+Z removes the line being drawn, else the last finished shape, one at a time', () => {
    const two = run([...points([1, 1], [2, 2], [3, 1]), { type: 'finish', id: 'a' }, ...points([5, 5], [6, 6], [7, 5]), { type: 'finish', id: 'b' }]);
    const drafting = run(points([9, 9]), two);
    const undone = run([{ type: 'undo' }], drafting);
    expect(undone.draft).toEqual([]);
    expect(undone.shapes.map((s) => s.id)).toEqual(['a', 'b']);
    expect(run([{ type: 'undo' }], undone).shapes.map((s) => s.id)).toEqual(['a']);
    const empty = run([{ type: 'undo' }, { type: 'undo' }, { type: 'undo' }], undone);
    expect(empty.shapes).toEqual([]);
  });

  it('shows the saved drawing when it arrives, unless the user has already changed something', () => {
    const fresh = run([{ type: 'loaded', shapes: [saved] }]);
    expect(fresh.shapes).toEqual([saved]);
    expect(fresh.dirty).toBe(false);
    const busy = run(points([1, 1]));
    expect(run([{ type: 'loaded', shapes: [saved] }], busy).shapes).toEqual([]);
    const changed = run([...points([1, 1], [2, 2], [3, 1]), { type: 'finish', id: 'a' }]);
    expect(run([{ type: 'loaded', shapes: [saved] }], changed).shapes.map((s) => s.id)).toEqual(['a']);
  });

  it('is clean after a save of what it shows, still dirty when shapes changed during the save', () => {
    const changed = run([...points([1, 1], [2, 2], [3, 1]), { type: 'finish', id: 'a' }]);
    expect(run([{ type: 'saved', shapes: changed.shapes }], changed).dirty).toBe(false);
    const more = run([...points([5, 5], [6, 6], [7, 5]), { type: 'finish', id: 'b' }], changed);
    expect(run([{ type: 'saved', shapes: changed.shapes }], more).dirty).toBe(true);
  });
});
