import { Box, Button, Group, Select, Text, UnstyledButton } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { PimField, TranscriptionLayoutLine } from '@pim/contract';
import { useRef, useState, type KeyboardEvent } from 'react';
import { MARKED_LINE_COLOR } from '../../components/layout-overlay/layout-style';
import { manuscriptText } from '../../components/manuscript-text/manuscript-text';
import { useTranslation } from '../../i18n/use-translation';
import { isFixed, type FieldValue, type FormValues } from './form-values';

/** The list scrolls by itself beside the viewer, so the page keeps the image in view. */
const LIST_HEIGHT = 'max(240px, calc(100vh - 620px))';

const STEPS: Record<string, (position: number, count: number) => number> = {
  ArrowDown: (position, count) => Math.min(position + 1, count - 1),
  ArrowUp: (position) => Math.max(position - 1, 0),
  Home: () => 0,
  End: (_, count) => count - 1,
};

interface TranscriptionLinesProps {
  /** The lines in reading order. */
  lines: TranscriptionLayoutLine[];
  /** The index of the chosen line, if one of these. */
  chosen: number | null;
  /** The line at `position` (0-based) in reading order is chosen. */
  onChoose: (line: TranscriptionLayoutLine, position: number) => void;
}

/**
 * The recognised text as its lines, each a button that chooses it (the viewer marks it). The arrow
 * keys, Home and End step through the lines from the one with the focus.
 */
export function TranscriptionLines({ lines, chosen, onChoose }: TranscriptionLinesProps) {
  const { t } = useTranslation('annotator');
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const step = (event: KeyboardEvent, position: number) => {
    const move = STEPS[event.key];
    // With a modifier the keys are the annotator's (Alt+← and Alt+→ move between images).
    if (!move || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    const next = move(position, lines.length);
    onChoose(lines[next]!, next);
    buttons.current[next]?.focus();
  };

  return (
    <Box component="ol" aria-label={t('transcription.lines')} m={0} p={0} mah={LIST_HEIGHT} style={{ listStyle: 'none', overflowY: 'auto' }}>
      {lines.map((line, position) => {
        const selected = line.index === chosen;
        const placed = line.coords !== null || line.baseline !== null;
        return (
          <li key={line.index}>
            <UnstyledButton
              ref={(element) => {
                buttons.current[position] = element;
              }}
              aria-pressed={selected}
              title={placed ? undefined : t('transcription.notOnImage')}
              onClick={() => onChoose(line, position)}
              onKeyDown={(event) => step(event, position)}
              w="100%"
              px="xs"
              py={2}
              style={{
                display: 'flex',
                gap: 'var(--mantine-spacing-xs)',
                alignItems: 'baseline',
                borderLeft: `3px solid ${selected ? MARKED_LINE_COLOR : 'transparent'}`,
                background: selected ? 'var(--mantine-color-yellow-light)' : undefined,
              }}
            >
              <Text component="span" size="xs" c="dimmed" w="2.5em" ta="right" style={{ flexShrink: 0 }} aria-hidden>
                {position + 1}
              </Text>
              <Text component="span" style={{ ...manuscriptText, lineHeight: 1.45 }} c={placed ? undefined : 'dimmed'}>
                {line.text || t('transcription.emptyLine')}
              </Text>
            </UnstyledButton>
          </li>
        );
      })}
    </Box>
  );
}

interface CopyLineProps {
  text: string;
  fields: PimField[];
  /** The annotator's form: what the fields hold now. */
  values: FormValues;
  /** Puts a value into the form, as typing would; the annotator's Save stores it. */
  onCopy: (fieldId: string, value: FieldValue) => void;
}

/**
 * Copies the chosen line into a text field of the form (the first until another is picked): a
 * text field then holds the line, a notes field gets it as a line of its own at its end.
 */
export function CopyLine({ text, fields, values, onCopy }: CopyLineProps) {
  const { t } = useTranslation('annotator');
  const targets = fields.filter((field) => (field.type === 'text' || field.type === 'notes') && !isFixed(field));
  const [picked, setPicked] = useState<string | null>(null);
  const target = targets.find((field) => field.id === picked) ?? targets[0];
  if (!target || text === '') return null;
  const copy = () => {
    const current = values[target.id];
    const value = target.type === 'notes' && typeof current === 'string' && current.trim() !== '' ? `${current.replace(/\n+$/, '')}\n${text}` : text;
    onCopy(target.id, value);
    notifications.show({ color: 'blue', message: t('transcription.copied', { field: target.label }) });
  };
  return (
    <Group gap="xs" align="flex-end" wrap="nowrap">
      <Select
        size="xs"
        label={t('transcription.copyInto')}
        data={targets.map((field) => ({ value: field.id, label: field.label }))}
        value={target.id}
        onChange={setPicked}
        allowDeselect={false}
        style={{ flex: 1 }}
      />
      <Button size="xs" variant="light" onClick={copy}>
        {t('transcription.copy')}
      </Button>
    </Group>
  );
}
