import { Alert, Anchor, Button, Select, Stack, Text } from '@mantine/core';
import type { PimField, Transcription, TranscriptionLayout, TranscriptionLayoutLine } from '@pim/contract';
import { Suspense, useMemo, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranscriptionLayout, useTranscriptions } from '../../api/transcriptions';
import { manuscriptText } from '../../components/manuscript-text/manuscript-text';
import { Trans } from '../../i18n/trans';
import { useTranslation } from '../../i18n/use-translation';
import { useTranscriptionLabels } from '../documentimage/comparison/labels';
import type { FieldValue, FormValues } from './form-values';
import { ownImageUuid } from './paths';
import { markOf, type TranscriptionChoice } from './transcription-choice';
import { CopyLine, TranscriptionLines } from './transcription-lines';

interface TranscriptionTabProps {
  /** The current canvas's image (its Image service id). */
  imageUri: string;
  /** What the tab has chosen on this image, kept by the workspace. */
  choice: TranscriptionChoice;
  fields: PimField[];
  values: FormValues;
  onCopy: (fieldId: string, value: FieldValue) => void;
}

/** What the tab says while it waits or for want of anything to show. */
function Note({ children }: { children: ReactNode }) {
  return (
    <Text size="sm" c="dimmed">
      {children}
    </Text>
  );
}

/** A call that failed: why, and Try again. */
function Failed({ message, onRetry }: { message: string; onRetry: () => void }) {
  const { t } = useTranslation('annotator');
  return (
    <Alert color="red">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{message}</Text>
        <Button size="xs" variant="default" onClick={onRetry}>
          {t('errors.retry')}
        </Button>
      </Stack>
    </Alert>
  );
}

/** Where text is recognised: the Jobs page, as a link inside the sentence. */
function WithJobsLink({ i18nKey }: { i18nKey: 'transcription.notOurs' | 'transcription.none' }) {
  const { t } = useTranslation('annotator');
  return (
    <Text size="sm">
      <Trans t={t} i18nKey={i18nKey} components={{ jobs: <Anchor component={Link} to="/jobs" /> }} />
    </Text>
  );
}

/** Who made the transcription, where its label names the file it was read from instead. */
function Transcriber({ transcription, label }: { transcription: Transcription; label: string }) {
  const { t } = useTranslation('annotator');
  const name = transcription.transcriber?.trim();
  if (!name || label.includes(name)) return null;
  return (
    <Text size="xs" c="dimmed" data-testid="transcriber">
      {t('transcription.transcriber', { name })}
    </Text>
  );
}

/** The layout's lines in reading order. */
function linesInReadingOrder(layout: TranscriptionLayout): TranscriptionLayoutLine[] {
  const byIndex = new Map(layout.regions.flatMap((region) => region.lines).map((line) => [line.index, line]));
  return layout.readingOrder.flatMap((index) => byIndex.get(index) ?? []);
}

/** The chosen transcription's text: its lines to choose from, or its plain text when it has no lines. */
function RecognisedText({ imageUuid, transcription, choice, fields, values, onCopy }: Omit<TranscriptionTabProps, 'imageUri'> & { imageUuid: string; transcription: Transcription }) {
  const { t } = useTranslation('annotator');
  const layout = useTranscriptionLayout(imageUuid, transcription.uuid, { quiet: true });
  if (layout.isError) return <Failed message={t('transcription.layoutFailed', { message: layout.error.message })} onRetry={() => void layout.refetch()} />;
  if (layout.isPending) return <Note>{t('transcription.layoutLoading')}</Note>;
  const lines = linesInReadingOrder(layout.data);
  if (lines.length === 0) {
    if (transcription.cleanText.trim() === '') return <Note>{t('transcription.noText')}</Note>;
    return (
      <Stack gap={4}>
        <Note>{t('transcription.noLines')}</Note>
        <Text style={manuscriptText}>{transcription.cleanText}</Text>
      </Stack>
    );
  }
  const mark = choice.mark?.transcriptionId === transcription.uuid ? choice.mark : null;
  return (
    <Stack gap="xs">
      <Note>{t('transcription.hint')}</Note>
      <TranscriptionLines lines={lines} chosen={mark?.index ?? null} onChoose={(line, position) => choice.chooseLine(markOf(layout.data, line, position))} />
      {mark && <CopyLine text={mark.line.text} fields={fields} values={values} onCopy={onCopy} />}
    </Stack>
  );
}

/**
 * The image's transcriptions, newest first, each by its label (format, file or transcriber,
 * language, date), the one chosen (else the newest) with its text.
 */
function OwnImageTranscriptions({ imageUuid, choice, ...rest }: Omit<TranscriptionTabProps, 'imageUri'> & { imageUuid: string }) {
  const { t } = useTranslation('annotator');
  const transcriptions = useTranscriptions(imageUuid, { quiet: true });
  const newestFirst = useMemo(() => transcriptions.data && [...transcriptions.data].reverse(), [transcriptions.data]);
  // The picker's labels say what tells the transcriptions apart, as the image page's tabs do.
  const labels = useTranscriptionLabels(newestFirst);
  if (transcriptions.isError) {
    return <Failed message={t('transcription.failed', { message: transcriptions.error.message })} onRetry={() => void transcriptions.refetch()} />;
  }
  if (!newestFirst) return <Note>{t('transcription.loading')}</Note>;
  if (newestFirst.length === 0) return <WithJobsLink i18nKey="transcription.none" />;
  const chosen = newestFirst.find((transcription) => transcription.uuid === choice.transcriptionId) ?? newestFirst[0]!;
  const label = labels.get(chosen.uuid) ?? '';
  return (
    <Stack gap="xs">
      {newestFirst.length > 1 ? (
        <Select
          label={t('transcription.choose')}
          data={newestFirst.map((transcription) => ({ value: transcription.uuid, label: labels.get(transcription.uuid) ?? transcription.uuid }))}
          value={chosen.uuid}
          onChange={(uuid) => uuid && choice.chooseTranscription(uuid)}
          allowDeselect={false}
        />
      ) : (
        <Text size="sm" fw={500}>
          {label}
        </Text>
      )}
      <Transcriber transcription={chosen} label={label} />
      <RecognisedText key={chosen.uuid} imageUuid={imageUuid} transcription={chosen} choice={choice} {...rest} />
    </Stack>
  );
}

/**
 * The newer annotator's 'Transcription' tab: the recognised text of one of our images beside it,
 * line by line in reading order; a chosen line is marked on the viewer and can be copied into the
 * form. Another server's image, or one without a transcription, says so and where text is made.
 */
export function TranscriptionTab({ imageUri, ...rest }: TranscriptionTabProps) {
  const { t } = useTranslation('annotator');
  const imageUuid = ownImageUuid(imageUri);
  if (imageUuid === null) return <WithJobsLink i18nKey="transcription.notOurs" />;
  // The labels' wording (the comparison namespace) loads in the tab's place, not the page's.
  return (
    <Suspense fallback={<Note>{t('transcription.loading')}</Note>}>
      <OwnImageTranscriptions key={imageUuid} imageUuid={imageUuid} {...rest} />
    </Suspense>
  );
}
