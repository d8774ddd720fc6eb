import { Stack, Text } from '@mantine/core';
import type OpenSeadragon from 'openseadragon';
import { headersFor, ImageViewer, OpenSeadragonView, type ImageRect, type ViewerOverlay } from '../../components/image-viewer/image-viewer';
import { MarkedLineShape } from '../../components/layout-overlay/marked-line';
import { useTranslation } from '../../i18n/use-translation';
import { useAuthHeaders } from '../../session/auth-headers';
import type { ManifestCanvas } from './manifest-canvases';
import type { LineMark } from './transcription-choice';

interface ViewerProps {
  height: string | number;
  /** The viewer's overlay and the part of the image it brings into view; none on the spec's annotator. */
  marking?: { overlay: ViewerOverlay; focus: ImageRect | null };
}

/**
 * A canvas whose image has no IIIF Image service: the picture itself in the viewer. Our token (and
 * so the XHR loading that carries it) only for our own server; other servers' pictures load as
 * plain images, which needs no CORS.
 */
function PlainImageViewer({ url, height, marking }: ViewerProps & { url: string }) {
  const { t } = useTranslation('annotator');
  return (
    <Stack gap={4}>
      <Text size="xs" c="dimmed">
        {t('viewer.plainImage')}
      </Text>
      <OpenSeadragonView
        tileSources={{ type: 'image', url } as OpenSeadragon.TileSourceOptions}
        ajaxHeaders={headersFor(url, useAuthHeaders())}
        height={height}
        overlay={marking?.overlay}
        focus={marking?.focus}
      />
    </Stack>
  );
}

/** The chosen line drawn over the image, in the pixels the layout measured; nothing until one is chosen. */
function useMarking(mark: LineMark | null | undefined): ViewerProps['marking'] {
  // The shape's wording (drawings) loads with the screen: loading it at the first mark would
  // suspend the page, and the focus would leave the line just chosen.
  const { t } = useTranslation(mark === undefined ? 'annotator' : ['annotator', 'drawings']);
  if (mark === undefined) return undefined;
  const box = mark?.line.box ?? null;
  const overlay: ViewerOverlay = {
    width: mark?.image.width ?? 1,
    height: mark?.image.height ?? 1,
    content: mark && box && (
      <MarkedLineShape line={{ ...mark.line, box }} label={t('transcription.markedShape', { n: mark.line.number, text: mark.line.text })} />
    ),
  };
  return { overlay, focus: box };
}

/**
 * The image of the current canvas: its Image service in the shared viewer, or the picture itself.
 * `mark` (the newer annotator's; null while none is chosen, from the first render so the viewer
 * is made once) is the line chosen on the Transcription tab, outlined and brought into view.
 */
export function CanvasViewer({ canvas, height, mark }: Omit<ViewerProps, 'marking'> & { canvas: ManifestCanvas; mark?: LineMark | null }) {
  const marking = useMarking(mark);
  if (canvas.infoUrl) return <ImageViewer key={canvas.infoUrl} infoUrl={canvas.infoUrl} height={height} overlay={marking?.overlay} focus={marking?.focus} />;
  return <PlainImageViewer key={canvas.imageServiceId} url={canvas.imageServiceId} height={height} marking={marking} />;
}
