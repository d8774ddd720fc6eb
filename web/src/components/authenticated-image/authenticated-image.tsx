import { Center, Text } from '@mantine/core';
import { useAuthenticatedImage, useNearScreen } from './use-authenticated-image';

interface AuthenticatedImageProps {
  /** An API path or an absolute address (see `apiImageUrl`); none shows `fallback` at once. */
  path: string | undefined;
  alt: string;
  /** Said in the box when there is no image, e.g. 'No preview'. */
  fallback: string;
  /** The box the image is fitted into, in pixels; its place stays empty while the bytes come. */
  width: number;
  height: number;
  /** The box may narrow below `width` to fit its column. */
  shrink?: boolean;
}

/**
 * An image fetched with the user's sign-in (`useAuthenticatedImage`) once it is near the screen,
 * fitted into a grey box; the box says `fallback` when there is no image.
 */
export function AuthenticatedImage({ path, alt, fallback, width, height, shrink = false }: AuthenticatedImageProps) {
  const [ref, near] = useNearScreen<HTMLDivElement>();
  const { src, failed } = useAuthenticatedImage(path, near);
  return (
    <Center
      ref={ref}
      w={width}
      h={height}
      maw={shrink ? '100%' : undefined}
      bg="gray.1"
      style={{ flex: 'none', borderRadius: 'var(--mantine-radius-sm)', overflow: 'hidden' }}
    >
      {src ? (
        <img src={src} alt={alt} style={{ maxWidth: '100%', maxHeight: '100%', display: 'block' }} />
      ) : (
        failed && (
          <Text size="xs" c="dimmed" ta="center" px={4}>
            {fallback}
          </Text>
        )
      )}
    </Center>
  );
}
