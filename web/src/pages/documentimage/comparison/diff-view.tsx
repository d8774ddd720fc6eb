import { Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import type { AlignmentOp, AlignmentRun } from '@pim/contract';
import { memo, useId, useMemo, type ReactNode } from 'react';
import './diff.css';
import { MANUSCRIPT_FONT_FAMILY, manuscriptText } from '../../../components/manuscript-text/manuscript-text';
import { useTranslation } from '../../../i18n/use-translation';
import type { DiffLevel } from './url-state';
import { visibleRun } from './visible';
import { wordsWithSeparators } from './word-layout';

type Side = 'reference' | 'hypothesis';
type ChangeOp = Exclude<AlignmentOp, 'equal'>;

const CHANGE_OPS: ChangeOp[] = ['insert', 'delete', 'substitute'];

// Stand in for the texts in the translated tooltips, filled in per run.
const FIRST = '\u0000';
const SECOND = '\u0001';

/** The tooltip of a changed run, with whitespace made visible; translated once, not once per run. */
function useChangeTitle(level: DiffLevel) {
  const { t } = useTranslation('comparison');
  return useMemo(() => {
    const show = level === 'characters' ? visibleRun : (text: string) => text;
    const inserted = t('diff.inserted', { text: FIRST });
    const deleted = t('diff.deleted', { text: FIRST });
    const substituted = t('diff.substituted', { reference: FIRST, hypothesis: SECOND });
    const fill = (template: string, first: string, second = '') => template.split(FIRST).join(show(first)).split(SECOND).join(show(second));
    return (run: AlignmentRun) =>
      run.op === 'substitute'
        ? fill(substituted, run.reference, run.hypothesis)
        : fill(run.op === 'insert' ? inserted : deleted, run.reference || run.hypothesis);
  }, [t, level]);
}

interface DiffSideProps {
  runs: AlignmentRun[];
  side: Side;
  level: DiffLevel;
  /** For the word level: the whitespace after each word of this side's text (word-layout.ts). */
  separators: string[];
}

/** One side of the diff: equal text as it is, changes marked, and a bar where the other side has more. */
function DiffSide({ runs, side, level, separators }: DiffSideProps) {
  const title = useChangeTitle(level);
  const nodes: ReactNode[] = [];
  // Unchanged text and the whitespace around it gather into one text node: a long page has thousands.
  let plain = '';
  const mark = (node: ReactNode) => {
    if (plain !== '') nodes.push(plain);
    plain = '';
    nodes.push(node);
  };
  // Words of this side written so far.
  let words = 0;
  runs.forEach((run, i) => {
    let text = run[side];
    if (text === '') {
      if (run.op !== 'equal') mark(<span key={i} data-op={run.op} data-gap="" title={title(run)} />);
      return;
    }
    if (level === 'words') {
      if (words > 0) plain += separators[words - 1] ?? ' ';
      const laidOut = wordsWithSeparators(text, words, separators);
      text = laidOut.text;
      words += laidOut.count;
    }
    if (run.op === 'equal') {
      plain += text;
      return;
    }
    const Element = side === 'reference' ? 'del' : 'ins';
    mark(
      <Element key={i} data-op={run.op} title={title(run)}>
        {level === 'characters' ? visibleRun(text) : text}
      </Element>,
    );
  });
  if (plain !== '') nodes.push(plain);
  return nodes;
}

export function DiffLegend() {
  const { t } = useTranslation('comparison');
  return (
    <Group gap="lg" wrap="wrap" aria-label={t('legend.title')} role="group" className="pim-diff">
      {CHANGE_OPS.map((op) => (
        <Group key={op} gap={6} wrap="nowrap">
          <span aria-hidden data-op={op} className="pim-diff-sample" style={{ fontFamily: MANUSCRIPT_FONT_FAMILY }}>
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
  separators: { reference: string[]; hypothesis: string[] };
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
export const DiffView = memo(function DiffView({ runs, level, separators, referenceTitle, hypothesisTitle }: DiffViewProps) {
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md" className="pim-diff">
      <DiffColumn title={referenceTitle}>
        <DiffSide runs={runs} side="reference" level={level} separators={separators.reference} />
      </DiffColumn>
      <DiffColumn title={hypothesisTitle}>
        <DiffSide runs={runs} side="hypothesis" level={level} separators={separators.hypothesis} />
      </DiffColumn>
    </SimpleGrid>
  );
});
