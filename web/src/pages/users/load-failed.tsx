import { Alert, Text } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { ApiError } from '../../api/client';

interface LoadFailedProps {
  error: Error;
  /** The title when the server refused (403): the caller lacks the role for this screen. */
  forbidden: string;
  /** The title for any other failure. */
  failed: string;
}

/** Instead of an empty screen: why there is nothing to show, with the server's own sentence. */
export function LoadFailed({ error, forbidden, failed }: LoadFailedProps) {
  const refused = error instanceof ApiError && error.status === 403;
  return (
    <Alert color={refused ? 'yellow' : 'red'} icon={refused ? <IconLock aria-hidden /> : undefined} title={refused ? forbidden : failed}>
      <Text size="sm">{error.message}</Text>
    </Alert>
  );
}
