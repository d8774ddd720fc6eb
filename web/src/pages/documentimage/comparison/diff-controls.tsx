import { Anchor, Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import type { GroundTruthOfImage } from '@pim/contract';
import { IconArrowsDiff, IconChecks, IconX } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from '../../../i18n/use-translation';
import type { ComparisonActions, ComparisonState, DiffSlot } from './url-state';

export type GroundTruthEntry = GroundTruthOfImage[number];

interface DiffControlsProps {
  uuid: string;
  imageUuid: string;
  labels: Map<string, string>;
  state: ComparisonState;
  actions: ComparisonActions;
  /** undefined while loading or when it failed (then `groundTruthFailed`). */
  groundTruth: GroundTruthEntry | undefined;
  groundTruthFailed: boolean;
}

const SLOTS: DiffSlot[] = ['diff1', 'diff2'];

/** 'Diff 1' and 'Diff 2' for this transcription, pressed when it holds that place. */
function DiffButtons({ uuid, state, actions }: Pick<DiffControlsProps, 'uuid' | 'state' | 'actions'>) {
  const { t } = useTranslation('comparison');
  return (
    <Group gap="xs">
      {SLOTS.map((slot) => {
        const marked = state[slot] === uuid;
        return (
          <Button
            key={slot}
            variant={marked ? 'filled' : 'default'}
            aria-pressed={marked}
            title={t(marked ? `diff.unmark.${slot}` : `diff.mark.${slot}`)}
            leftSection={marked ? <IconChecks size={16} aria-hidden /> : undefined}
            onClick={() => actions.toggle(slot, uuid)}
          >
            {t(`diff.${slot}`)}
          </Button>
        );
      })}
    </Group>
  );
}

/** Which transcriptions are marked, seen from any transcription's tab, and the way to the comparison. */
function ComparisonStatus({ labels, state, actions }: Pick<DiffControlsProps, 'labels' | 'state' | 'actions'>) {
  const { t } = useTranslation('comparison');
  const nameOf = (uuid: string | null) => (uuid ? (labels.get(uuid) ?? uuid) : t('diff.notChosen'));
  const ready = state.groundTruth !== null || (state.diff1 !== null && state.diff2 !== null);
  const anything = ready || state.diff1 !== null || state.diff2 !== null;
  return (
    <Group gap="xs" justify="space-between" wrap="wrap">
      {state.groundTruth ? (
        <Text size="sm">{t('diff.withGroundTruth', { label: nameOf(state.groundTruth) })}</Text>
      ) : (
        <Group gap="md">
          <Text size="sm">
            <Badge component="span" variant="light" mr={6}>
              {t('diff.diff1')}
            </Badge>
            {t('diff.reference')}: {nameOf(state.diff1)}
          </Text>
          <Text size="sm">
            <Badge component="span" variant="light" color="grape" mr={6}>
              {t('diff.diff2')}
            </Badge>
            {t('diff.hypothesis')}: {nameOf(state.diff2)}
          </Text>
        </Group>
      )}
      <Group gap="xs">
        {ready && (
          <Button size="xs" leftSection={<IconArrowsDiff size={14} aria-hidden />} onClick={actions.showComparison}>
            {t('diff.show')}
          </Button>
        )}
        {anything && (
          <Button size="xs" variant="default" leftSection={<IconX size={14} aria-hidden />} onClick={actions.clear}>
            {t('diff.clear')}
          </Button>
        )}
      </Group>
    </Group>
  );
}

/** How much of this transcription has ground truth, and the comparison with it when there is some. */
function GroundTruthOffer({ uuid, imageUuid, actions, groundTruth, groundTruthFailed }: Omit<DiffControlsProps, 'labels' | 'state'>) {
  const { t } = useTranslation('comparison');
  if (groundTruthFailed) return <Text size="sm" c="dimmed">{t('groundTruth.failed')}</Text>;
  if (!groundTruth || groundTruth.linesTotal === 0) return null;
  const corrected = groundTruth.lines.length;
  const correctLink = (
    <Anchor component={Link} size="sm" to={`/pimsimpletextline?parentuuid=${encodeURIComponent(imageUuid)}`}>
      {t('groundTruth.correct')}
    </Anchor>
  );
  if (corrected === 0) {
    return (
      <Group gap="xs">
        <Text size="sm" c="dimmed">
          {t('groundTruth.none', { count: groundTruth.linesTotal })}
        </Text>
        {correctLink}
      </Group>
    );
  }
  return (
    <Group gap="xs">
      <Button variant="light" color="teal" onClick={() => actions.compareWithGroundTruth(uuid)}>
        {t('groundTruth.compare')}
      </Button>
      <Text size="sm">{t('groundTruth.corrected', { corrected, count: groundTruth.linesTotal })}</Text>
      {correctLink}
    </Group>
  );
}

/** The comparison controls at the top of a transcription's tab. */
export function DiffControls(props: DiffControlsProps) {
  return (
    <Paper withBorder p="sm">
      <Stack gap="sm">
        <Group gap="lg" wrap="wrap">
          <DiffButtons {...props} />
          <GroundTruthOffer {...props} />
        </Group>
        <ComparisonStatus {...props} />
      </Stack>
    </Paper>
  );
}
