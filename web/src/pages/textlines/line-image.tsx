import { Box, Center, Loader, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { fetchTextLineImage } from '../../api/textlines';
import { useTranslation } from '../../i18n/use-translation';
import { useAuthHeaders } from '../../session/auth-headers';

type ImageState = { status: 'loading' } | { status: 'ready'; url: string } | { status: 'failed' };

/** Room for a line image while it loads, so the text field below does not jump. */
const PLACEHOLDER_HEIGHT = 80;

/**
 * The line's region of the page. The bytes are fetched with the sign-in and shown through an
 * object URL, revoked when the line changes or the screen goes. Mount it with `key={uuid}` so a
 * new line starts from the loading state.
 */
export function LineImage({ uuid, alt }: { uuid: string; alt: string }) {
  const { t } = useTranslation('textlines');
  const headerKey = JSON.stringify(useAuthHeaders());
  const [state, setState] = useState<ImageState>({ status: 'loading' });

  useEffect(() => {
    const controller = new AbortController();
    let url: string | null = null;
    fetchTextLineImage(uuid, JSON.parse(headerKey) as Record<string, string>, controller.signal)
      .then((blob) => {
        url = URL.createObjectURL(blob);
        setState({ status: 'ready', url });
      })
      .catch(() => {
        if (!controller.signal.aborted) setState({ status: 'failed' });
      });
    return () => {
      controller.abort();
      if (url) URL.revokeObjectURL(url);
    };
  }, [uuid, headerKey]);

  if (state.status === 'failed') {
    return (
      <Text size="sm" c="dimmed">
        {t('line.imageFailed')}
      </Text>
    );
  }
  // A frame as wide as the text field below, whatever the width of the line.
  return (
    <Box p="xs" bg="gray.1" style={{ borderRadius: 'var(--mantine-radius-sm)' }}>
      {state.status === 'loading' ? (
        <Center h={PLACEHOLDER_HEIGHT}>
          <Loader size="sm" aria-label={t('line.imageLoading')} />
        </Center>
      ) : (
        <img src={state.url} alt={alt} style={{ display: 'block', maxWidth: '100%', height: 'auto' }} />
      )}
    </Box>
  );
}
