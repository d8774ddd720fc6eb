import { Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import type { AlignmentRun } from '@pim/contract';
import { Fragment, memo, useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CHANGE_OPS, changeStyle, gapStyle, type ChangeOp } from './diff-style';
import { manuscriptText } from './text-style';
import type { DiffLevel } from './url-state';
import { visibleRun } from './visible';

type Side = 'reference' | 'hypothesis';

/** The tooltip of a changed run, with whitespace made visible. */
function useChangeTitle(level: DiffLevel) {
  const { t } = useTranslation('comparison');
  const show = level === 'characters' ? visibleRun : (text: string) => text;
  return (run: AlignmentRun) =>
    run.op === 'substitute'
      ? t('diff.substituted', { reference: show(run.reference), hypothesis: show(run.hypothesis) })
      : t(run.op === 'insert' ? 'diff.inserted' : 'diff.deleted', { text: show(run.reference || run.hypothesis) });
}

/** One side of the diff: equal text as it is, changes marked, and a bar where the other side has more. */
function DiffSide({ runs, side, level }: { runs: AlignmentRun[]; side: Side; level: DiffLevel }) {
  const title = useChangeTitle(level);
  const nodes: ReactNode[] = [];
  let written = false;
  runs.forEach((run, i) => {
    const text = run[side];
    if (text === '') {
      if (run.op !== 'equal') nodes.push(<span key={i} data-op={run.op} data-gap="" title={title(run)} style={gapStyle(run.op)} />);
      return;
    }
    // The word alignment keeps words only: one space between them.
    if (level === 'words' && written) nodes.push(' ');
    written = true;
    if (run.op === 'equal') {
      nodes.push(<Fragment key={i}>{text}</Fragment>);
      return;
    }
    const Element = side === 'reference' ? 'del' : 'ins';
    nodes.push(
      <Element key={i} data-op={run.op} title={title(run)} style={changeStyle(run.op)}>
        {level === 'characters' ? visibleRun(text) : text}
      </Element>,
    );
  });
  return nodes;
}

export function DiffLegend() {
  const { t } = useTranslation('comparison');
  return (
    <Group gap="lg" wrap="wrap" aria-label={t('legend.title')} role="group">
      {CHANGE_OPS.map((op: ChangeOp) => (
        <Group key={op} gap={6} wrap="nowrap">
          <span aria-hidden style={{ ...changeStyle(op), padding: '0 4px', fontFamily: manuscriptText.fontFamily }}>
            abc
          </span>
          <Text size="sm">{t(`legend.${op}`)}</Text>
        </Group>
      ))}
      <Text size="sm" c="dimmed">
        {t('legend.invisible')}
      </Text>
    </Group>
  );
}

interface DiffViewProps {
  runs: AlignmentRun[];
  level: DiffLevel;
  referenceTitle: string;
  hypothesisTitle: string;
}

function DiffColumn({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <Paper withBorder p="md" style={{ minWidth: 0 }}>
      <Stack gap="xs">
        <Text id={id} fw={600} size="sm">
          {title}
        </Text>
        <pre aria-labelledby={id} style={manuscriptText}>
          {children}
        </pre>
      </Stack>
    </Paper>
  );
}

/**
 * The two texts side by side, each with its changes against the other marked. Thousands of
 * elements for a long page: rendered again only when the runs or titles change.
 */
export const DiffView = memo(function DiffView({ runs, level, referenceTitle, hypothesisTitle }: DiffViewProps) {
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
      <DiffColumn title={referenceTitle}>
        <DiffSide runs={runs} side="reference" level={level} />
      </DiffColumn>
      <DiffColumn title={hypothesisTitle}>
        <DiffSide runs={runs} side="hypothesis" level={level} />
      </DiffColumn>
    </SimpleGrid>
  );
});
