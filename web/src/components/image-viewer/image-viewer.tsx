import { ActionIcon, Alert, Box, Group } from '@mantine/core';
import { IconHome, IconZoomIn, IconZoomOut } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type OpenSeadragon from 'openseadragon';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from '../../i18n/use-translation';
import { useAuthHeaders } from '../../session/auth-headers';
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

/** SVG drawn over the image in its own pixel coordinates, moving and zooming with it. */
export interface ViewerOverlay {
  /** The image's size in pixels: the overlay's coordinate space. */
  width: number;
  height: number;
  /** SVG elements; null draws nothing. */
  content: ReactNode;
  /** A click (not a drag) on the image, at this image pixel. */
  onClick?: (point: [number, number]) => void;
}

/** A rectangle of the image, in its pixels. */
export interface ImageRect {
  x: number;
  y: number;
  w: number;
  h: number;
}

interface ViewerFrameProps {
  /** What OpenSeadragon shows: a IIIF info.json, or `{ type: 'image', url }` for a single picture; null while it loads. */
  tileSources: OpenSeadragon.TileSourceOptions | null;
  /** Headers of its tile requests; tiles are loaded with XHR only when there are any. */
  ajaxHeaders: Record<string, string>;
  height: string | number;
  /** Given from the first render on (it may draw nothing at first), so the viewer is made once. */
  overlay?: ViewerOverlay;
  /** A part of the image to bring into view when it opens or this changes (a found line). */
  focus?: ImageRect | null;
}

/**
 * OpenSeadragon with our zoom buttons: one viewer per source, created when it is known and
 * destroyed when the source or the page goes. The library is loaded only by pages that show an image.
 */
export function OpenSeadragonView({ tileSources, ajaxHeaders, height, overlay, focus = null }: ViewerFrameProps) {
  const { t } = useTranslation('imagesets');
  const container = useRef<HTMLDivElement>(null);
  const viewer = useRef<OpenSeadragon.Viewer | null>(null);
  const sourceKey = JSON.stringify(tileSources);
  const headerKey = JSON.stringify(ajaxHeaders);
  const withOverlay = overlay !== undefined;
  // OpenSeadragon places and scales this element over the image; React renders the overlay into it.
  const [overlayElement] = useState(() => document.createElement('div'));
  const onOverlayClick = useRef(overlay?.onClick);
  const focusRef = useRef(focus);
  useEffect(() => {
    onOverlayClick.current = overlay?.onClick;
    focusRef.current = focus;
  });
  const focusKey = focus && JSON.stringify(focus);

  useEffect(() => {
    const element = container.current;
    if (!element || sourceKey === 'null') return;
    const headers = JSON.parse(headerKey) as Record<string, string>;
    let instance: OpenSeadragon.Viewer | null = null;
    let unmounted = false;
    void import('openseadragon').then(({ default: createViewer }) => {
      if (unmounted) return;
      instance = createViewer({
        element,
        tileSources: JSON.parse(sourceKey) as OpenSeadragon.TileSourceOptions,
        showNavigationControl: false,
        loadTilesWithAjax: Object.keys(headers).length > 0,
        ajaxHeaders: headers,
        gestureSettingsMouse: { clickToZoom: false },
      });
      viewer.current = instance;
      const opened = instance;
      opened.addHandler('open', () => {
        if (focusRef.current) bringIntoView(opened, focusRef.current);
      });
      if (withOverlay) attachOverlay(instance, overlayElement, (point) => onOverlayClick.current?.(point));
    });
    return () => {
      unmounted = true;
      instance?.destroy();
      viewer.current = null;
    };
  }, [sourceKey, headerKey, withOverlay, overlayElement]);

  useEffect(() => {
    // Once the image is open; before that, its 'open' handler brings the focus into view.
    if (viewer.current && focusKey) bringIntoView(viewer.current, JSON.parse(focusKey) as ImageRect);
  }, [focusKey]);

  const zoom = (factor: number) => {
    const viewport = viewer.current?.viewport;
    if (!viewport) return;
    viewport.zoomBy(factor);
    viewport.applyConstraints();
  };

  return (
    <Box pos="relative" h={height}>
      {tileSources === null && <Spinner />}
      <Box ref={container} h="100%" w="100%" data-testid="image-viewer" bg="dark.7" />
      {overlay &&
        createPortal(
          <svg
            width="100%"
            height="100%"
            viewBox={`0 0 ${overlay.width} ${overlay.height}`}
            preserveAspectRatio="none"
            style={{ display: 'block', overflow: 'visible' }}
            data-testid="viewer-overlay"
          >
            {overlay.content}
          </svg>,
          overlayElement,
        )}
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

/** Fits the rectangle into the viewer with some of the page around it: the lines above and below, a margin at its ends. */
function bringIntoView(instance: OpenSeadragon.Viewer, { x, y, w, h }: ImageRect) {
  const image = instance.world.getItemAt(0);
  if (!image) return;
  const marginX = w * 0.1;
  const marginY = h * 2;
  instance.viewport.fitBoundsWithConstraints(image.imageToViewportRectangle(x - marginX, y - marginY, w + 2 * marginX, h + 2 * marginY), true);
}

/**
 * Puts the overlay element over the whole image once it is open, and reports quick clicks (not
 * drags) at their image pixel. A click is read from the viewer rather than from the shapes, as
 * the viewer holds the pointer while a button is down.
 */
function attachOverlay(instance: OpenSeadragon.Viewer, element: HTMLElement, onClick: (point: [number, number]) => void) {
  element.style.pointerEvents = 'none';
  instance.addHandler('open', () => {
    const image = instance.world.getItemAt(0);
    if (image) instance.addOverlay({ element, location: image.getBounds() });
  });
  instance.addHandler('canvas-click', (event) => {
    const image = instance.world.getItemAt(0);
    if (!event.quick || !image) return;
    const point = image.viewerElementToImageCoordinates(event.position);
    onClick([point.x, point.y]);
  });
}

interface ImageViewerProps {
  /** The IIIF Image API info.json of the image. */
  infoUrl: string;
  /** CSS height of the viewer; the viewer-only page fills the window. */
  height?: string | number;
  overlay?: ViewerOverlay;
  focus?: ImageRect | null;
}

/**
 * OpenSeadragon over a IIIF Image API service. The info.json is fetched here (with the
 * Authorization header when it is our own server), and the viewer gets the same header for its tiles.
 */
export function ImageViewer({ infoUrl, height = 600, overlay, focus }: ImageViewerProps) {
  const { t } = useTranslation('imagesets');
  const headers = headersFor(infoUrl, useAuthHeaders());
  const headerKey = JSON.stringify(headers);
  const info = useQuery({
    queryKey: ['iiif-info', infoUrl, headerKey],
    queryFn: ({ signal }) => fetchInfo(infoUrl, JSON.parse(headerKey) as Record<string, string>, signal),
    staleTime: Infinity,
    retry: false,
  });
  if (info.isError) return <Alert color="red">{t('viewer.loadFailed', { message: info.error.message })}</Alert>;
  const tileSources = (info.data ?? null) as OpenSeadragon.TileSourceOptions | null;
  return <OpenSeadragonView tileSources={tileSources} ajaxHeaders={headers} height={height} overlay={overlay} focus={focus} />;
}
