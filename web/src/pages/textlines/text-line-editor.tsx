import { Anchor, Button, Group, Kbd, Stack, Text, Textarea } from '@mantine/core';
import type { SimpleTextLine } from '@pim/contract';
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { MANUSCRIPT_FONT_FAMILY } from '../../components/manuscript-text/manuscript-text';
import { Trans } from '../../i18n/trans';
import { useTranslation } from '../../i18n/use-translation';
import { LineImage } from './line-image';
import { formatPercent } from './percent';

export type Busy = 'save' | 'skip' | null;

interface TextLineEditorProps {
  line: SimpleTextLine;
  busy: Busy;
  /** What happened to the last line ('Saved.'), shown beside the buttons. */
  status?: ReactNode;
  onSave: (groundtruth: string) => void;
  onSkip: (groundtruth: string) => void;
}

/**
 * The text exactly as typed: no trimming, no Unicode normalisation (long s, abbreviation marks
 * and combining characters are the point of ground truth). Only a newline at the very end, which
 * a paste can bring, is not part of the line.
 */
export function groundTruthOf(typed: string): string {
  return typed.replace(/\r?\n$/, '');
}

/** Where the line comes from: its image (a link) and position, and how sure the recogniser was. */
function LineSource({ line }: { line: SimpleTextLine }) {
  const { t, i18n } = useTranslation('textlines');
  const rate = (value: number) => formatPercent(value, i18n.language);
  return (
    <Group gap="lg" wrap="wrap">
      <Text size="sm" data-testid="line-position">
        {/* The page first: 'Line 9 of' before a page labelled '1' read as 'line 9 of 1 line'. */}
        <Trans
          t={t}
          i18nKey="line.position"
          values={{ label: line.documentImageLabel, line: line.lineIndex + 1 }}
          components={{ page: <Anchor component={Link} to={`/documentimage?uuid=${encodeURIComponent(line.documentImageId)}`} /> }}
        />
      </Text>
      {line.confidence !== null && (
        <Text size="sm" c="dimmed">
          {t('line.confidence', { value: rate(line.confidence) })}
        </Text>
      )}
      {line.lowestConf !== null && (
        <Text size="sm" c="dimmed">
          {t('line.lowestConf', { value: rate(line.lowestConf) })}
        </Text>
      )}
    </Group>
  );
}

function ShortcutHint() {
  const { t } = useTranslation('textlines');
  return (
    <Text size="sm" c="dimmed" data-testid="shortcut-hint">
      <Kbd>Enter</Kbd> {t('hint.save')} · <Kbd>Ctrl</Kbd> + <Kbd>Enter</Kbd> {t('hint.skip')}
    </Text>
  );
}

/**
 * One line to correct: its image above the text field, Save and Skip. The field has the focus
 * from the start, so a person can correct line after line from the keyboard.
 */
export function TextLineEditor({ line, busy, status, onSave, onSkip }: TextLineEditorProps) {
  const { t } = useTranslation('textlines');
  const [typed, setTyped] = useState(line.groundTruth ?? line.text);
  const field = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    const element = field.current;
    if (!element) return;
    element.focus();
    element.setSelectionRange(element.value.length, element.value.length);
  }, []);

  const save = () => {
    if (!busy) onSave(groundTruthOf(typed));
  };
  const skip = () => {
    if (!busy) onSkip(groundTruthOf(typed));
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // Enter that confirms an input method's composition (e.g. a character picked by name) is not a save.
    if (event.key !== 'Enter' || event.nativeEvent.isComposing) return;
    // A line is one line: no Enter combination ever inserts a newline.
    event.preventDefault();
    if (event.ctrlKey || event.metaKey) skip();
    else if (!event.shiftKey && !event.altKey) save();
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save();
  };
  const alt = t('line.imageAlt', { line: line.lineIndex + 1, label: line.documentImageLabel });

  return (
    <form onSubmit={onSubmit}>
      <Stack gap="md">
        <LineSource line={line} />
        {line.region ? (
          <LineImage key={line.uuid} uuid={line.uuid} alt={alt} />
        ) : (
          <Text size="sm" c="dimmed">
            {t('line.noRegion')}
          </Text>
        )}
        <Textarea
          ref={field}
          label={t('line.groundTruth')}
          value={typed}
          onChange={(event) => setTyped(event.currentTarget.value)}
          onKeyDown={onKeyDown}
          autosize
          minRows={1}
          size="lg"
          styles={{ input: { fontFamily: MANUSCRIPT_FONT_FAMILY } }}
          spellCheck={false}
          autoComplete="off"
          autoCapitalize="off"
        />
        {line.groundTruth !== null && line.groundTruth !== line.text && (
          <Text size="sm" c="dimmed">
            {t('line.recognised')}{' '}
            <Text span inherit style={{ whiteSpace: 'pre-wrap', fontFamily: MANUSCRIPT_FONT_FAMILY }} data-testid="recognised-text">
              {line.text}
            </Text>
          </Text>
        )}
        <Group justify="space-between" wrap="wrap">
          <Group gap="sm">
            <Button type="submit" loading={busy === 'save'} disabled={busy === 'skip'}>
              {t('line.save')}
            </Button>
            <Button variant="default" onClick={skip} loading={busy === 'skip'} disabled={busy === 'save'}>
              {t('line.skip')}
            </Button>
            {status}
          </Group>
          <ShortcutHint />
        </Group>
      </Stack>
    </form>
  );
}
