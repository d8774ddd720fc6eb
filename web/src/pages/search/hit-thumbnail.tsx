import { Center, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuthHeaders } from '../../api/documentimages';
import { headersFor } from '../../components/image-viewer/image-viewer';

const BOX = { width: 120, height: 160 };

/** True once the element is near the screen: nothing is fetched for hits no one scrolls to. */
function useNearScreen(): [React.RefObject<HTMLDivElement | null>, boolean] {
  const ref = useRef<HTMLDivElement>(null);
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

/**
 * A hit's thumbnail. A private image's bytes need the sign-in, which an <img> cannot send: ours
 * are fetched with it and shown through an object URL; another server's are linked as they are.
 */
export function HitThumbnail({ url, alt }: { url: string | undefined; alt: string }) {
  const { t } = useTranslation('search');
  const authHeaders = useAuthHeaders();
  const headers = url ? headersFor(url, authHeaders) : {};
  const headerKey = JSON.stringify(headers);
  const [ref, near] = useNearScreen();
  const [shown, setShown] = useState<{ url: string; src: string } | null>(null);
  const [failed, setFailed] = useState<string | null>(null);

  useEffect(() => {
    if (!url || !near) return;
    const controller = new AbortController();
    let objectUrl: string | null = null;
    fetch(url, { headers: JSON.parse(headerKey) as Record<string, string>, signal: controller.signal })
      .then(async (response) => {
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        objectUrl = URL.createObjectURL(await response.blob());
        setShown({ url, src: objectUrl });
      })
      .catch(() => {
        if (!controller.signal.aborted) setFailed(url);
      });
    return () => {
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [url, near, headerKey]);

  const src = shown && shown.url === url ? shown.src : null;
  return (
    <Center ref={ref} w={BOX.width} h={BOX.height} bg="gray.1" style={{ flex: 'none', borderRadius: 'var(--mantine-radius-sm)', overflow: 'hidden' }}>
      {src ? (
        <img src={src} alt={alt} loading="lazy" style={{ maxWidth: '100%', maxHeight: '100%', display: 'block' }} />
      ) : (
        (!url || failed === url) && (
          <Text size="xs" c="dimmed" ta="center" px={4}>
            {t('hit.noThumbnail')}
          </Text>
        )
      )}
    </Center>
  );
}
