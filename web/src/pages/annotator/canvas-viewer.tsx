import { Stack, Text } from '@mantine/core';
import type OpenSeadragon from 'openseadragon';
import { useTranslation } from 'react-i18next';
import { useAuthHeaders } from '../../api/documentimages';
import { headersFor, ImageViewer, OpenSeadragonView } from '../../components/image-viewer/image-viewer';
import type { ManifestCanvas } from './manifest-canvases';

interface ViewerProps {
  height: string | number;
}

/**
 * A canvas whose image has no IIIF Image service: the picture itself in the viewer. Our token (and
 * so the XHR loading that carries it) only for our own server; other servers' pictures load as
 * plain images, which needs no CORS.
 */
function PlainImageViewer({ url, height }: ViewerProps & { url: string }) {
  const { t } = useTranslation('annotator');
  return (
    <Stack gap={4}>
      <Text size="xs" c="dimmed">
        {t('viewer.plainImage')}
      </Text>
      <OpenSeadragonView tileSources={{ type: 'image', url } as OpenSeadragon.TileSourceOptions} ajaxHeaders={headersFor(url, useAuthHeaders())} height={height} />
    </Stack>
  );
}

/** The image of the current canvas: its Image service in the shared viewer, or the picture itself. */
export function CanvasViewer({ canvas, height }: ViewerProps & { canvas: ManifestCanvas }) {
  if (canvas.infoUrl) return <ImageViewer key={canvas.infoUrl} infoUrl={canvas.infoUrl} height={height} />;
  return <PlainImageViewer key={canvas.imageServiceId} url={canvas.imageServiceId} height={height} />;
}
