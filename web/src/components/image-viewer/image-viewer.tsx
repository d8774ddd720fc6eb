import { ActionIcon, Alert, Box, Group } from '@mantine/core';
import { IconHome, IconZoomIn, IconZoomOut } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type OpenSeadragon from 'openseadragon';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuthHeaders } from '../../api/documentimages';
import { Spinner } from '../spinner';

const ZOOM_STEP = 1.5;

/** Our token goes only to our own server, never to a third-party IIIF service. */
export function headersFor(url: string, authHeaders: Record<string, string>): Record<string, string> {
  return new URL(url, window.location.href).origin === window.location.origin ? authHeaders : {};
}

async function fetchInfo(url: string, headers: Record<string, string>, signal: AbortSignal): Promise<object> {
  const response = await fetch(url, { headers: { Accept: 'application/json', ...headers }, signal });
  if (!response.ok) throw new Error(`${response.status} ${await response.text().catch(() => '')}`.trim());
  return (await response.json()) as object;
}

interface ImageViewerProps {
  /** The IIIF Image API info.json of the image. */
  infoUrl: string;
  /** CSS height of the viewer; the viewer-only page fills the window. */
  height?: string | number;
}

/**
 * OpenSeadragon over a IIIF Image API service. The info.json is fetched here (with the
 * Authorization header when it is our own server), and the viewer gets the same header for its tiles.
 */
export function ImageViewer({ infoUrl, height = 600 }: ImageViewerProps) {
  const { t } = useTranslation('imagesets');
  const container = useRef<HTMLDivElement>(null);
  const viewer = useRef<OpenSeadragon.Viewer | null>(null);
  const headers = headersFor(infoUrl, useAuthHeaders());
  const headerKey = JSON.stringify(headers);
  const info = useQuery({
    queryKey: ['iiif-info', infoUrl, headerKey],
    queryFn: ({ signal }) => fetchInfo(infoUrl, JSON.parse(headerKey) as Record<string, string>, signal),
    staleTime: Infinity,
    retry: false,
  });

  useEffect(() => {
    const element = container.current;
    if (!element || !info.data) return;
    const tileSources = info.data as OpenSeadragon.TileSourceOptions;
    let instance: OpenSeadragon.Viewer | null = null;
    let unmounted = false;
    // One viewer per image: created when its info arrives, destroyed when the image or page goes.
    // The library is loaded only by pages that show an image.
    void import('openseadragon').then(({ default: createViewer }) => {
      if (unmounted) return;
      instance = createViewer({
        element,
        tileSources,
        showNavigationControl: false,
        loadTilesWithAjax: true,
        ajaxHeaders: JSON.parse(headerKey) as Record<string, string>,
        gestureSettingsMouse: { clickToZoom: false },
      });
      viewer.current = instance;
    });
    return () => {
      unmounted = true;
      instance?.destroy();
      viewer.current = null;
    };
  }, [info.data, headerKey]);

  const zoom = (factor: number) => {
    const viewport = viewer.current?.viewport;
    if (!viewport) return;
    viewport.zoomBy(factor);
    viewport.applyConstraints();
  };

  if (info.isError) return <Alert color="red">{t('viewer.loadFailed', { message: info.error.message })}</Alert>;
  return (
    <Box pos="relative" h={height}>
      {info.isPending && <Spinner />}
      <Box ref={container} h="100%" w="100%" data-testid="image-viewer" bg="dark.7" />
      <Group gap={4} pos="absolute" top={8} left={8} style={{ zIndex: 2 }}>
        <ActionIcon variant="default" aria-label={t('viewer.zoomIn')} onClick={() => zoom(ZOOM_STEP)}>
          <IconZoomIn size={16} />
        </ActionIcon>
        <ActionIcon variant="default" aria-label={t('viewer.zoomOut')} onClick={() => zoom(1 / ZOOM_STEP)}>
          <IconZoomOut size={16} />
        </ActionIcon>
        <ActionIcon variant="default" aria-label={t('viewer.home')} onClick={() => viewer.current?.viewport.goHome()}>
          <IconHome size={16} />
        </ActionIcon>
      </Group>
    </Box>
  );
}
