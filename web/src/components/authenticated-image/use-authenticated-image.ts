import { useEffect, useRef, useState } from 'react';
import { apiUrl } from '../../api/client';
import { useAuthHeaders } from '../../session/auth-headers';
import { headersFor } from '../image-viewer/image-viewer';

/**
 * Where an image named in an answer is fetched from: an absolute or root-relative address (a IIIF
 * Image API request) as it is, an API path (`pim/documentimage/{id}/thumbnail`,
 * `pim/pimsimpletextline/{line}/image`) below the API base.
 */
export function apiImageUrl(path: string): string {
  return /^(https?:)?\//.test(path) ? path : apiUrl(path);
}

/** True once the element is near the screen: a long list fetches only the images someone scrolls to. */
export function useNearScreen<T extends Element>(): [React.RefObject<T | null>, boolean] {
  const ref = useRef<T>(null);
  const [near, setNear] = useState(typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const element = ref.current;
    if (near || !element) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) setNear(true);
    }, { rootMargin: '200px' });
    observer.observe(element);
    return () => observer.disconnect();
  }, [near]);
  return [ref, near];
}

export interface AuthenticatedImageState {
  /** The object URL of the fetched bytes; null until they are in. */
  src: string | null;
  /** No image: there is no address, or fetching it failed. */
  failed: boolean;
}

/**
 * An image that needs the sign-in, which an <img> cannot send: the bytes are fetched with it and
 * shown through an object URL, released when the address changes or the caller goes. Another
 * server's address gets no token. Nothing is fetched until `enabled`.
 */
export function useAuthenticatedImage(path: string | undefined, enabled = true): AuthenticatedImageState {
  const authHeaders = useAuthHeaders();
  const url = path === undefined ? undefined : apiImageUrl(path);
  const headerKey = JSON.stringify(url ? headersFor(url, authHeaders) : {});
  const [shown, setShown] = useState<{ url: string; src: string } | null>(null);
  const [failedUrl, setFailedUrl] = useState<string | null>(null);

  useEffect(() => {
    if (!url || !enabled) return;
    const controller = new AbortController();
    let objectUrl: string | null = null;
    fetch(url, { headers: JSON.parse(headerKey) as Record<string, string>, signal: controller.signal })
      .then(async (response) => {
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        objectUrl = URL.createObjectURL(await response.blob());
        setShown({ url, src: objectUrl });
      })
      .catch(() => {
        if (!controller.signal.aborted) setFailedUrl(url);
      });
    return () => {
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [url, enabled, headerKey]);

  return { src: shown !== null && shown.url === url ? shown.src : null, failed: !url || failedUrl === url };
}
