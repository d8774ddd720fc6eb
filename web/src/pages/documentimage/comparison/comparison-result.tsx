import { Button, Group, Loader, Paper, SegmentedControl, SimpleGrid, Stack, Text, Title, useMatches } from '@mantine/core';
import { NORMALISATIONS, type AlignmentRun, type Normalisation } from '@pim/contract';
import { IconX } from '@tabler/icons-react';
import { useId, type CSSProperties } from 'react';
import { useTranslation } from '../../../i18n/use-translation';
import type { DiffResult } from './compute';
import { ConfusionsTable } from './confusions-table';
import { DiffLegend, DiffView } from './diff-view';
import { Disclosure } from './disclosure';
import { AllNormalisationsTable, MeasuresTable } from './measures-table';
import type { ComparedTexts } from './sources';
import { useComparisonTask, type TaskState } from './use-comparison-task';
import type { ComparisonActions, ComparisonState, DiffLevel } from './url-state';

/** What is compared with what, said plainly: diff 1 is the reference, diff 2 the hypothesis. */
function SourceCards({ texts }: { texts: ComparedTexts }) {
  const { t } = useTranslation('comparison');
  const cards =
    texts.kind === 'groundTruth'
      ? [
          { role: t('result.referenceGroundTruth'), name: t('result.groundTruthOf', { label: texts.referenceName, corrected: texts.lines!.corrected, count: texts.lines!.total }) },
          { role: t('result.hypothesisRecognised'), name: t('result.recognisedOf', { label: texts.hypothesisName }) },
        ]
      : [
          { role: t('result.reference'), name: texts.referenceName },
          { role: t('result.hypothesis'), name: texts.hypothesisName },
        ];
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
      {cards.map((card) => (
        <Paper key={card.role} withBorder p="sm" bg="var(--mantine-color-gray-0)">
          <Text size="xs" tt="uppercase" fw={700} c="dimmed">
            {card.role}
          </Text>
          <Text fw={500}>{card.name}</Text>
        </Paper>
      ))}
    </SimpleGrid>
  );
}

function NormalisationChoice({ value, onChange, busy }: { value: Normalisation; onChange: (choice: Normalisation) => void; busy: boolean }) {
  const { t } = useTranslation('comparison');
  const labelId = useId();
  // Six choices do not fit across a phone: stacked there rather than cut off.
  const orientation = useMatches<'vertical' | 'horizontal'>({ base: 'vertical', sm: 'horizontal' });
  return (
    <Stack gap={4}>
      <Group gap="xs">
        <Text fw={600} size="sm" id={labelId}>
          {t('normalisation.label')}
        </Text>
        {busy && <Loader size="xs" aria-label={t('result.computing')} />}
      </Group>
      <SegmentedControl
        aria-labelledby={labelId}
        orientation={orientation}
        style={{ alignSelf: 'flex-start' }}
        value={value}
        onChange={(choice) => onChange(choice as Normalisation)}
        data={NORMALISATIONS.map(({ id }) => ({ value: id, label: t(`normalisations.${id}`) }))}
      />
      <Text size="xs" c="dimmed">
        {t('normalisation.help')}
      </Text>
    </Stack>
  );
}

function countChanges(runs: AlignmentRun[], level: DiffLevel) {
  const size = (text: string) => (level === 'characters' ? Array.from(text).length : text.split(' ').length);
  const counts = { insert: 0, delete: 0, substitute: 0 };
  for (const run of runs) {
    if (run.op === 'insert') counts.insert += size(run.hypothesis);
    else if (run.op !== 'equal') counts[run.op] += size(run.reference);
  }
  return counts;
}

/** A result still shown while the next one is computed. */
function dimmed(busy: boolean): CSSProperties {
  return { opacity: busy ? 0.6 : 1, transition: 'opacity 150ms' };
}

function Computing() {
  const { t } = useTranslation('comparison');
  return (
    <Group gap="xs">
      <Loader size="sm" />
      <Text size="sm" c="dimmed">
        {t('result.computing')}
      </Text>
    </Group>
  );
}

interface DiffSectionProps {
  diff: TaskState<DiffResult>;
  texts: ComparedTexts;
  /** The level chosen, which the diff shown may lag behind while it is computed. */
  level: DiffLevel;
  onLevel: (level: DiffLevel) => void;
}

function DiffBody({ diff, texts }: { diff: DiffResult; texts: ComparedTexts }) {
  const { t } = useTranslation('comparison');
  const titles =
    texts.kind === 'groundTruth'
      ? [t('result.referenceGroundTruth'), t('result.hypothesisRecognised')]
      : [`${t('result.reference')}: ${texts.referenceName}`, `${t('result.hypothesis')}: ${texts.hypothesisName}`];
  return (
    <>
      <Text size="sm" aria-live="polite">
        {t(`diff.changes.${diff.level}`, countChanges(diff.runs, diff.level))}
      </Text>
      <DiffView runs={diff.runs} level={diff.level} separators={diff.separators} referenceTitle={titles[0]!} hypothesisTitle={titles[1]!} />
    </>
  );
}

function DiffSection({ diff, texts, level, onLevel }: DiffSectionProps) {
  const { t } = useTranslation('comparison');
  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="wrap">
        <Title order={4}>{t('diff.title')}</Title>
        <SegmentedControl
          aria-label={t('diff.level')}
          value={level}
          onChange={(value) => onLevel(value as DiffLevel)}
          data={[
            { value: 'characters', label: t('diff.characters') },
            { value: 'words', label: t('diff.words') },
          ]}
        />
      </Group>
      <DiffLegend />
      {diff.result ? (
        <Stack gap="sm" style={dimmed(diff.busy)}>
          <DiffBody diff={diff.result} texts={texts} />
        </Stack>
      ) : (
        <Computing />
      )}
    </Stack>
  );
}

/**
 * The comparison of two texts: the measures under the chosen normalisation, the side-by-side
 * diff, and on request every normalisation's measures and the most frequent confusions. What a
 * new choice asks for is computed in a worker; until it is there, the last result stays, dimmed.
 */
export function ComparisonResult({ texts, state, actions }: { texts: ComparedTexts; state: ComparisonState; actions: ComparisonActions }) {
  const { t } = useTranslation('comparison');
  const { reference, hypothesis } = texts;
  const choice = state.normalisation;
  const measures = useComparisonTask('measures', { reference, hypothesis, choice });
  const diff = useComparisonTask('diff', { reference, hypothesis, choice, level: state.level });
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start">
        <Title order={3}>{t('result.title')}</Title>
        <Button variant="default" leftSection={<IconX size={16} aria-hidden />} onClick={actions.clear}>
          {t('diff.clear')}
        </Button>
      </Group>
      <SourceCards texts={texts} />
      <NormalisationChoice value={choice} onChange={actions.setNormalisation} busy={measures.busy || diff.busy} />
      <Stack gap="xs">
        {measures.result ? (
          <div style={dimmed(measures.busy)}>
            <MeasuresTable measures={measures.result} />
          </div>
        ) : (
          <Computing />
        )}
        <Disclosure label={t('all.show')}>{() => <AllNormalisationsTable reference={reference} hypothesis={hypothesis} chosen={choice} />}</Disclosure>
      </Stack>
      <DiffSection diff={diff} texts={texts} level={state.level} onLevel={actions.setLevel} />
      <Disclosure label={t('confusions.show')}>
        {() => <ConfusionsTable reference={reference} hypothesis={hypothesis} choice={choice} />}
      </Disclosure>
    </Stack>
  );
}
