import { Code, Paper, Stack, Table, Text, Title } from '@mantine/core';
import type { Transcription } from '@pim/contract';
import { useId, type ReactNode } from 'react';
import { manuscriptText } from '../../../components/manuscript-text/manuscript-text';
import { useTranslation } from '../../../i18n/use-translation';
import { formatDateTime, languageName } from './labels';

/**
 * The read-only fields of a transcription, in the spec's order (part 1 §2), with the file it was
 * read from and its language beside what they belong with.
 */
const FIELDS = ['format', 'sourceFileName', 'id', 'documentImageId', 'transcriber', 'language', 'version', 'analyzed', 'params', 'uuid', 'status'] as const;

function FieldValue({ transcription, field }: { transcription: Transcription; field: (typeof FIELDS)[number] }): ReactNode {
  const { i18n } = useTranslation('comparison');
  if (field === 'analyzed') {
    const { analyzed } = transcription;
    return analyzed && <time dateTime={analyzed}>{formatDateTime(analyzed, i18n.language)}</time>;
  }
  if (field === 'language') {
    const { language } = transcription;
    if (!language) return null;
    const name = languageName(language, i18n.language);
    return name === language ? language : `${name} (${language})`;
  }
  if (field === 'params') {
    const { params } = transcription;
    if (params === null || params === undefined) return null;
    return <Code block>{JSON.stringify(params, null, 2)}</Code>;
  }
  return transcription[field];
}

export function TranscriptionFields({ transcription }: { transcription: Transcription }) {
  const { t } = useTranslation('comparison');
  return (
    <Table aria-label={t('fields.title')} withRowBorders>
      <Table.Tbody>
        {FIELDS.map((field) => (
          <Table.Tr key={field}>
            <Table.Th w={180}>{field}</Table.Th>
            <Table.Td style={{ wordBreak: 'break-word' }}>
              <FieldValue transcription={transcription} field={field} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** The clean text exactly as stored: every space, line break and combining mark. */
export function CleanText({ text }: { text: string }) {
  const { t } = useTranslation('comparison');
  const headingId = useId();
  const characters = Array.from(text).length;
  const lines = text === '' ? 0 : text.split('\n').length;
  return (
    <Stack gap={6}>
      <Title order={4} id={headingId}>
        {t('fields.cleanText')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('fields.characters', { count: characters })}, {t('fields.lines', { count: lines })}
      </Text>
      <Paper withBorder p="md" bg="var(--mantine-color-gray-0)">
        {text === '' ? (
          <Text c="dimmed">{t('fields.emptyText')}</Text>
        ) : (
          <pre aria-labelledby={headingId} style={manuscriptText}>
            {text}
          </pre>
        )}
      </Paper>
    </Stack>
  );
}
