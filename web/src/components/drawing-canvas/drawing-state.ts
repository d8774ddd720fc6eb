import { MIN_POINTS, type DrawingKind, type DrawingLabel, type DrawingPoint, type DrawingShape } from '@pim/contract';

/** What the drawing tool holds: the finished shapes, the one being drawn and the chosen tool. */
export interface DrawingState {
  shapes: DrawingShape[];
  /** Points of the shape being drawn; it takes the current kind and label when finished. */
  draft: DrawingPoint[];
  kind: DrawingKind;
  label: DrawingLabel;
  /** Whether the shapes differ from the ones last loaded or saved. */
  dirty: boolean;
  /** Set when Enter could not finish the shape: it had too few points for its kind. */
  tooFewPoints: boolean;
}

export type DrawingAction =
  /** The saved drawing arrived; it replaces the shapes only while nothing has been changed. */
  | { type: 'loaded'; shapes: DrawingShape[] }
  /** These shapes were saved; changes made meanwhile stay unsaved. */
  | { type: 'saved'; shapes: DrawingShape[] }
  | { type: 'setKind'; kind: DrawingKind }
  | { type: 'setLabel'; label: DrawingLabel }
  | { type: 'addPoint'; point: DrawingPoint }
  /** Backspace: takes back the last point of the shape being drawn. */
  | { type: 'removeLastPoint' }
  /** Enter: the shape being drawn becomes a shape with this id, when it has enough points. */
  | { type: 'finish'; id: string }
  /** Escape: drops the shape being drawn. */
  | { type: 'cancel' }
  /** Ctrl+Z: removes the last line: the one being drawn, else the last finished shape. */
  | { type: 'undo' };

export function initialDrawingState(): DrawingState {
  return { shapes: [], draft: [], kind: 'polygon', label: 'region', dirty: false, tooFewPoints: false };
}

export function drawingReducer(state: DrawingState, action: DrawingAction): DrawingState {
  switch (action.type) {
    case 'loaded':
      return state.dirty || state.draft.length > 0 ? state : { ...state, shapes: action.shapes };
    case 'saved':
      return { ...state, dirty: state.shapes !== action.shapes };
    case 'setKind':
      return { ...state, kind: action.kind, tooFewPoints: false };
    case 'setLabel':
      return { ...state, label: action.label };
    case 'addPoint':
      return { ...state, draft: [...state.draft, action.point], tooFewPoints: false };
    case 'removeLastPoint':
      return { ...state, draft: state.draft.slice(0, -1), tooFewPoints: false };
    case 'finish':
      return finish(state, action.id);
    case 'cancel':
      return { ...state, draft: [], tooFewPoints: false };
    case 'undo':
      if (state.draft.length > 0) return { ...state, draft: [], tooFewPoints: false };
      if (state.shapes.length === 0) return state;
      return { ...state, shapes: state.shapes.slice(0, -1), dirty: true, tooFewPoints: false };
  }
}

function finish(state: DrawingState, id: string): DrawingState {
  if (state.draft.length === 0) return state;
  if (state.draft.length < MIN_POINTS[state.kind]) return { ...state, tooFewPoints: true };
  const shape: DrawingShape = { id, kind: state.kind, label: state.label, points: state.draft };
  return { ...state, shapes: [...state.shapes, shape], draft: [], dirty: true, tooFewPoints: false };
}
