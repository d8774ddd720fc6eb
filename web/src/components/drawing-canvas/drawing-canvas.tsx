import { Alert, Box, Stack } from '@mantine/core';
import type { TranscriptionLayout } from '@pim/contract';
import { useElementSize } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useEffect, useReducer, useRef, type KeyboardEvent } from 'react';
import { useDrawing, useSaveDrawing } from '../../api/drawings';
import { useTranslation } from '../../i18n/use-translation';
import { Spinner } from '../spinner';
import { drawingReducer, initialDrawingState, type DrawingAction } from './drawing-state';
import { DrawingSurface } from './drawing-surface';
import { DrawingToolbar } from './drawing-toolbar';
import { fittedScale, SURFACE_HEIGHT } from './geometry';
import { newShapeId } from './label-style';
import { usePageImage } from './page-image';

export interface DrawingImage {
  uuid: string;
  /** The image's IIIF Image API service. */
  uri: string;
  label: string;
  width: number;
  height: number;
}

interface DrawingCanvasProps {
  image: DrawingImage;
  /** An imported layout shown under the drawing for reference; it is never saved with it. */
  layout?: TranscriptionLayout | null;
}

/**
 * The drawing tool (spec part 1 §2, §9): lines and polygons over the page, each of one of six
 * label classes, on a surface of fixed height. The shapes load when it opens and are saved on the
 * image with Save.
 */
export function DrawingCanvas({ image, layout = null }: DrawingCanvasProps) {
  const { t } = useTranslation('drawings');
  const drawing = useDrawing(image.uuid);
  if (drawing.isError) return <Alert color="red">{t('loadFailed')}</Alert>;
  // Nothing can be drawn before the saved shapes are there: a save would otherwise drop them.
  if (drawing.isPending) return <Spinner />;
  return <DrawingTool image={image} layout={layout} />;
}

function DrawingTool({ image, layout }: { image: DrawingImage; layout: TranscriptionLayout | null }) {
  const { t } = useTranslation('drawings');
  const drawing = useDrawing(image.uuid);
  const save = useSaveDrawing(image.uuid);
  const [state, dispatch] = useReducer(drawingReducer, undefined, initialDrawingState);
  const page = usePageImage(image.uri, image);
  const { ref: measured, width } = useElementSize();
  const surface = useRef<HTMLDivElement>(null);
  const scale = fittedScale(image, width);

  useEffect(() => {
    if (drawing.data) dispatch({ type: 'loaded', shapes: drawing.data.shapes });
  }, [drawing.data]);
  useWarnBeforeLeaving(state.dirty);

  const onSave = () => {
    const shapes = state.shapes;
    save.mutate(shapes, {
      onSuccess: () => {
        dispatch({ type: 'saved', shapes });
        notifications.show({ color: 'green', message: t('saved', { count: shapes.length }) });
      },
    });
  };

  const onKeyDown = (e: KeyboardEvent) => {
    const action = keyAction(e, e.target === surface.current);
    if (!action) return;
    e.preventDefault();
    dispatch(action);
  };

  return (
    <Stack gap="sm" onKeyDown={onKeyDown}>
      <DrawingToolbar
        state={state}
        saving={save.isPending}
        onKind={(kind) => dispatch({ type: 'setKind', kind })}
        onLabel={(label) => dispatch({ type: 'setLabel', label })}
        onUndo={() => dispatch({ type: 'undo' })}
        onSave={onSave}
      />
      {page.error && <Alert color="red">{t('imageFailed', { message: page.error })}</Alert>}
      <Box ref={measured} w="100%">
        <Box
          ref={surface}
          tabIndex={0}
          h={SURFACE_HEIGHT}
          bg="dark.6"
          data-testid="drawing-surface"
          style={{ display: 'flex', alignItems: 'center', justifyContent: 'center', overflow: 'hidden', borderRadius: 4 }}
        >
          <DrawingSurface
            image={image}
            imageUrl={page.url}
            scale={scale}
            shapes={state.shapes}
            draft={state.draft}
            kind={state.kind}
            label={state.label}
            layout={layout}
            onPoint={(point) => dispatch({ type: 'addPoint', point })}
          />
        </Box>
      </Box>
    </Stack>
  );
}

/** The keyboard of the drawing tool (spec §9: Enter finishes a line, Ctrl+Z removes the last one). */
function keyAction(e: KeyboardEvent, onSurface: boolean): DrawingAction | null {
  if ((e.ctrlKey || e.metaKey) && !e.shiftKey && e.key.toLowerCase() === 'z') return { type: 'undo' };
  if (e.key === 'Escape') return { type: 'cancel' };
  // On the controls these keys press buttons and pick options; only on the surface are they the tool's.
  if (!onSurface) return null;
  if (e.key === 'Enter') return { type: 'finish', id: newShapeId() };
  if (e.key === 'Backspace') return { type: 'removeLastPoint' };
  return null;
}

/** The browser asks before a reload or close would lose unsaved shapes. */
function useWarnBeforeLeaving(dirty: boolean) {
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);
}
