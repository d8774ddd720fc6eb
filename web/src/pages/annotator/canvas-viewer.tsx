import { Box, Stack, Text } from '@mantine/core';
import type OpenSeadragon from 'openseadragon';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuthHeaders } from '../../api/documentimages';
import { headersFor, ImageViewer } from '../../components/image-viewer/image-viewer';
import type { ManifestCanvas } from './manifest-canvases';

interface ViewerProps {
  height: string | number;
}

/**
 * OpenSeadragon over a single picture, for canvases whose image has no IIIF Image service. Our
 * token (and so the XHR loading that carries it) only for our own server; other servers' pictures
 * load as plain images, which needs no CORS.
 */
function PlainImageViewer({ url, height }: ViewerProps & { url: string }) {
  const { t } = useTranslation('annotator');
  const container = useRef<HTMLDivElement>(null);
  const headerKey = JSON.stringify(headersFor(url, useAuthHeaders()));

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const ajaxHeaders = JSON.parse(headerKey) as Record<string, string>;
    let instance: OpenSeadragon.Viewer | null = null;
    let unmounted = false;
    void import('openseadragon').then(({ default: createViewer }) => {
      if (unmounted) return;
      instance = createViewer({
        element,
        tileSources: { type: 'image', url } as OpenSeadragon.TileSourceOptions,
        showNavigationControl: false,
        loadTilesWithAjax: Object.keys(ajaxHeaders).length > 0,
        ajaxHeaders,
        gestureSettingsMouse: { clickToZoom: false },
      });
    });
    return () => {
      unmounted = true;
      instance?.destroy();
    };
  }, [url, headerKey]);

  return (
    <Stack gap={4}>
      <Text size="xs" c="dimmed">
        {t('viewer.plainImage')}
      </Text>
      <Box ref={container} h={height} w="100%" data-testid="image-viewer" bg="dark.7" />
    </Stack>
  );
}

/** The image of the current canvas: its Image service in the shared viewer, or the picture itself. */
export function CanvasViewer({ canvas, height }: ViewerProps & { canvas: ManifestCanvas }) {
  if (canvas.infoUrl) return <ImageViewer key={canvas.infoUrl} infoUrl={canvas.infoUrl} height={height} />;
  return <PlainImageViewer key={canvas.imageServiceId} url={canvas.imageServiceId} height={height} />;
}
