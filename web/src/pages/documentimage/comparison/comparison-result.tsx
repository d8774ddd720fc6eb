import { Button, Group, Loader, Paper, SegmentedControl, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { alignCharacters, alignWords, compareTexts, NORMALISATIONS, normalise, type AlignmentRun, type Normalisation } from '@pim/contract';
import { IconX } from '@tabler/icons-react';
import { useDeferredValue, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfusionsTable } from './confusions-table';
import { DiffLegend, DiffView } from './diff-view';
import { Disclosure } from './disclosure';
import { AllNormalisationsTable, MeasuresTable } from './measures-table';
import type { ComparedTexts } from './sources';
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
  return (
    <Stack gap={4}>
      <Group gap="xs">
        <Text fw={600} size="sm" id={labelId}>
          {t('normalisation.label')}
        </Text>
        {busy && <Loader size="xs" aria-label={t('result.computing')} />}
      </Group>
      <div style={{ overflowX: 'auto' }}>
        <SegmentedControl
          aria-labelledby={labelId}
          value={value}
          onChange={(choice) => onChange(choice as Normalisation)}
          data={NORMALISATIONS.map(({ id }) => ({ value: id, label: t(`normalisations.${id}`) }))}
        />
      </div>
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

interface DiffSectionProps {
  reference: string;
  hypothesis: string;
  texts: ComparedTexts;
  /** The level shown, which may lag behind the one just chosen (`chosen`) while it is computed. */
  level: DiffLevel;
  chosen: DiffLevel;
  onLevel: (level: DiffLevel) => void;
}

function DiffSection({ reference, hypothesis, texts, level, chosen, onLevel }: DiffSectionProps) {
  const { t } = useTranslation('comparison');
  const runs = useMemo(
    () => (level === 'characters' ? alignCharacters(reference, hypothesis) : alignWords(reference, hypothesis)),
    [reference, hypothesis, level],
  );
  const changes = countChanges(runs, level);
  const titles =
    texts.kind === 'groundTruth'
      ? [t('result.referenceGroundTruth'), t('result.hypothesisRecognised')]
      : [`${t('result.reference')}: ${texts.referenceName}`, `${t('result.hypothesis')}: ${texts.hypothesisName}`];
  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="wrap">
        <Title order={4}>{t('diff.title')}</Title>
        <SegmentedControl
          aria-label={t('diff.level')}
          value={chosen}
          onChange={(value) => onLevel(value as DiffLevel)}
          data={[
            { value: 'characters', label: t('diff.characters') },
            { value: 'words', label: t('diff.words') },
          ]}
        />
      </Group>
      <DiffLegend />
      <Text size="sm" aria-live="polite">
        {t(`diff.changes.${level}`, changes)}
      </Text>
      <DiffView runs={runs} level={level} referenceTitle={titles[0]!} hypothesisTitle={titles[1]!} />
    </Stack>
  );
}

/**
 * A choice kept in the address, answered at once: the router applies address changes as a
 * transition, which would hold the control back until a long page is measured, so the control
 * follows a state of its own and the measuring follows that state, deferred.
 */
function useSnappyChoice<T>(stored: T, store: (value: T) => void): [T, T, (value: T) => void] {
  const [chosen, setChosen] = useState(stored);
  const shown = useDeferredValue(chosen);
  const choose = (value: T) => {
    setChosen(value);
    store(value);
  };
  return [chosen, shown, choose];
}

/**
 * The comparison of two texts: the measures under the chosen normalisation, the side-by-side
 * diff, and on request every normalisation's measures and the most frequent confusions.
 */
export function ComparisonResult({ texts, state, actions }: { texts: ComparedTexts; state: ComparisonState; actions: ComparisonActions }) {
  const { t } = useTranslation('comparison');
  const [chosenNormalisation, choice, chooseNormalisation] = useSnappyChoice(state.normalisation, actions.setNormalisation);
  const [chosenLevel, level, chooseLevel] = useSnappyChoice(state.level, actions.setLevel);
  const busy = choice !== chosenNormalisation || level !== chosenLevel;
  const measures = useMemo(() => compareTexts(texts.reference, texts.hypothesis, choice), [texts.reference, texts.hypothesis, choice]);
  const reference = useMemo(() => normalise(texts.reference, choice), [texts.reference, choice]);
  const hypothesis = useMemo(() => normalise(texts.hypothesis, choice), [texts.hypothesis, choice]);
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start">
        <Title order={3}>{t('result.title')}</Title>
        <Button variant="default" leftSection={<IconX size={16} aria-hidden />} onClick={actions.clear}>
          {t('diff.clear')}
        </Button>
      </Group>
      <SourceCards texts={texts} />
      <NormalisationChoice value={chosenNormalisation} onChange={chooseNormalisation} busy={busy} />
      <Stack gap="xs" style={{ opacity: busy ? 0.6 : 1 }}>
        <MeasuresTable measures={measures} />
        <Disclosure label={t('all.show')}>
          {() => <AllNormalisationsTable reference={texts.reference} hypothesis={texts.hypothesis} chosen={choice} />}
        </Disclosure>
      </Stack>
      <div style={{ opacity: busy ? 0.6 : 1 }}>
        <DiffSection reference={reference} hypothesis={hypothesis} texts={texts} level={level} chosen={chosenLevel} onLevel={chooseLevel} />
      </div>
      <Disclosure label={t('confusions.show')}>{() => <ConfusionsTable reference={reference} hypothesis={hypothesis} />}</Disclosure>
    </Stack>
  );
}
