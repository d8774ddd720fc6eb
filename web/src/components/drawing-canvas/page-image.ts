import { useEffect, useState } from 'react';
import { useAuthHeaders } from '../../session/auth-headers';
import { headersFor } from '../image-viewer/image-viewer';
import { requestedSize, type ImageSize } from './geometry';

type PageImage = { url: string | null; error: string | null };

/**
 * The page image from its IIIF Image API service, at the size the surface shows it. Our IIIF
 * routes want the Authorization header, which an <image href> cannot send, so the bytes are
 * fetched here and shown from an object URL that is released when the image goes.
 */
export function usePageImage(serviceUri: string, image: ImageSize): PageImage {
  const size = requestedSize(image, window.devicePixelRatio || 1);
  const src = `${serviceUri.replace(/\/$/, '')}/full/!${size.width},${size.height}/0/default.jpg`;
  const headerKey = JSON.stringify(headersFor(src, useAuthHeaders()));
  const [state, setState] = useState<PageImage & { src: string | null }>({ src: null, url: null, error: null });

  useEffect(() => {
    const controller = new AbortController();
    let objectUrl: string | null = null;
    fetch(src, { headers: JSON.parse(headerKey) as Record<string, string>, signal: controller.signal })
      .then(async (response) => {
        if (!response.ok) throw new Error(`${response.status} ${await response.text().catch(() => '')}`.trim());
        objectUrl = URL.createObjectURL(await response.blob());
        setState({ src, url: objectUrl, error: null });
      })
      .catch((error: unknown) => {
        if (!controller.signal.aborted) setState({ src, url: null, error: error instanceof Error ? error.message : String(error) });
      });
    return () => {
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [src, headerKey]);

  // An answer for an earlier image is not shown for this one.
  return state.src === src ? { url: state.url, error: state.error } : { url: null, error: null };
}
