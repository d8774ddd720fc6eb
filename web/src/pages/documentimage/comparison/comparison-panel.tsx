import { Alert, Button, Stack, Text } from '@mantine/core';
import type { Transcription } from '@pim/contract';
import type { TFunction } from '../../../i18n/translations';
import { useTranslation } from '../../../i18n/use-translation';
import { ComparisonResult } from './comparison-result';
import type { GroundTruthEntry } from './diff-controls';
import { comparedTexts } from './sources';
import type { ComparisonActions, ComparisonState } from './url-state';

interface ComparisonPanelProps {
  transcriptions: Transcription[];
  labels: Map<string, string>;
  groundTruth: GroundTruthEntry[] | undefined;
  groundTruthPending: boolean;
  state: ComparisonState;
  actions: ComparisonActions;
}

/** What is still missing for a comparison; null when nothing is chosen yet. */
function missing(state: ComparisonState, labels: Map<string, string>, t: TFunction): string | null {
  const label = (uuid: string) => labels.get(uuid) ?? uuid;
  if (state.groundTruth) return t('result.noGroundTruth', { label: label(state.groundTruth) });
  if (state.diff1 && !state.diff2) return t('result.needDiff2', { label: label(state.diff1) });
  if (state.diff2 && !state.diff1) return t('result.needDiff1', { label: label(state.diff2) });
  if (state.diff1 && state.diff2) return t('result.unknown');
  return null;
}

/** The comparison tab: the result once two texts are chosen, else how to choose them. */
export function ComparisonPanel({ transcriptions, labels, groundTruth, groundTruthPending, state, actions }: ComparisonPanelProps) {
  const { t } = useTranslation('comparison');
  const texts = comparedTexts(state, transcriptions, labels, groundTruth);
  if (texts) return <ComparisonResult texts={texts} state={state} actions={actions} />;
  // The ground truth is still on its way.
  if (state.groundTruth && groundTruthPending) return null;
  const still = missing(state, labels, t);
  return (
    <Alert color="indigo" title={t('result.title')}>
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{t('result.howTo')}</Text>
        {still && (
          <>
            <Text size="sm">{still}</Text>
            <Button size="xs" variant="default" onClick={actions.clear}>
              {t('diff.clear')}
            </Button>
          </>
        )}
      </Stack>
    </Alert>
  );
}
