import { Alert, Anchor, Button, Stack, Text, Title } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useSaveTextLine, useSkipTextLine, useTextLine, type TextLineSource } from '../../api/textlines';
import { Spinner } from '../../components/spinner';
import { useTranslation } from '../../i18n/use-translation';
import { RequireSignIn } from '../../session/require-sign-in';
import { TextLineEditor, type Busy } from './text-line-editor';

type Done = 'saved' | 'skipped' | null;

function differentListPath(parentuuid: string | null): string {
  return parentuuid ? `/pimsimpletextlines?parentuuid=${encodeURIComponent(parentuuid)}` : '/pimsimpletextlines';
}

function NoMoreLines({ parentuuid }: { parentuuid: string | null }) {
  const { t } = useTranslation('textlines');
  return (
    <Alert color="teal" icon={<IconCircleCheck aria-hidden />} title={t('line.noneTitle')}>
      <Stack gap="xs">
        <Text size="sm">{t('line.none')}</Text>
        <Anchor component={Link} to={differentListPath(parentuuid)} size="sm">
          {t('line.toDifferent')}
        </Anchor>
      </Stack>
    </Alert>
  );
}

/**
 * The correction loop: a line by uuid, else a random one of `parentuuid`, else any random one.
 * Save and Skip lead to the next random line (of the same parent when one was given).
 */
function TextLineCorrection() {
  const { t } = useTranslation('textlines');
  const [searchParams, setSearchParams] = useSearchParams();
  const uuid = searchParams.get('uuid');
  const parentuuid = searchParams.get('parentuuid');
  const [turn, setTurn] = useState(0);
  const [done, setDone] = useState<Done>(null);
  // Only the first line comes by uuid; the address loses the uuid a moment later than the turn moves on.
  const source: TextLineSource = uuid && turn === 0 ? { uuid } : { parentuuid };
  const line = useTextLine(source, turn);
  const save = useSaveTextLine();
  const skip = useSkipTextLine();
  // The button stays busy until the next line is there, so a second Enter cannot save twice.
  const nextLoading: Busy = line.isPlaceholderData ? (done === 'skipped' ? 'skip' : 'save') : null;
  const busy: Busy = save.isPending ? 'save' : skip.isPending ? 'skip' : nextLoading;

  const next = (what: Exclude<Done, null>) => {
    setDone(what);
    // The line asked for by uuid is done: a reload should show a random one too.
    if (uuid) {
      setSearchParams(
        (previous) => {
          const params = new URLSearchParams(previous);
          params.delete('uuid');
          return params;
        },
        { replace: true },
      );
    }
    setTurn((n) => n + 1);
  };

  if (line.isPending) return <Spinner />;
  if (line.isError) {
    return (
      <Alert color="red" title={t('line.loadFailedTitle')}>
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{t('line.loadFailed', { message: line.error.message })}</Text>
          <Button size="xs" variant="default" onClick={() => void line.refetch()}>
            {t('line.retry')}
          </Button>
        </Stack>
      </Alert>
    );
  }
  if (line.data.line === null) return <NoMoreLines parentuuid={parentuuid} />;
  const current = line.data.line;
  return (
    <TextLineEditor
      key={line.data.turn}
      line={current}
      busy={busy}
      status={
        done && (
          <Text size="sm" c="teal" role="status">
            {t(`line.${done}`)}
          </Text>
        )
      }
      onSave={(groundtruth) => save.mutate({ uuid: current.uuid, groundtruth }, { onSuccess: () => next('saved') })}
      onSkip={(groundtruth) => skip.mutate({ uuid: current.uuid, groundtruth }, { onSuccess: () => next('skipped') })}
    />
  );
}

export function TextLinePage() {
  const { t } = useTranslation('textlines');
  return (
    <Stack gap="md">
      <Title order={2}>{t('line.title')}</Title>
      <RequireSignIn>
        <TextLineCorrection />
      </RequireSignIn>
    </Stack>
  );
}
