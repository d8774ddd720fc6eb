import { Badge, Button, Chip, ColorSwatch, Group, Kbd, SegmentedControl, Stack, Text } from '@mantine/core';
import { DRAWING_KINDS, DRAWING_LABELS, type DrawingKind, type DrawingLabel } from '@pim/contract';
import { IconArrowBackUp, IconDeviceFloppy, IconLine, IconPolygon } from '@tabler/icons-react';
import { useTranslation } from '../../i18n/use-translation';
import type { DrawingState } from './drawing-state';
import { LABEL_COLORS } from './label-style';

interface DrawingToolbarProps {
  state: DrawingState;
  saving: boolean;
  onKind: (kind: DrawingKind) => void;
  onLabel: (label: DrawingLabel) => void;
  onUndo: () => void;
  onSave: () => void;
}

const KIND_ICONS = { line: IconLine, polygon: IconPolygon } as const;

/** An option's text after its icon; the text alone names it. */
export function IconLabel({ icon: Icon, text }: { icon: typeof IconLine; text: string }) {
  return (
    <Group gap={6} wrap="nowrap" justify="center" component="span">
      <Icon size={16} aria-hidden />
      <span>{text}</span>
    </Group>
  );
}

/** The tool: kind and label class (whose chips are the colour legend), undo, save and what is going on. */
export function DrawingToolbar({ state, saving, onKind, onLabel, onUndo, onSave }: DrawingToolbarProps) {
  const { t } = useTranslation('drawings');
  return (
    // Stays in sight under the app's header while the 1200 px surface is scrolled.
    <Stack gap="xs" py="xs" pos="sticky" top="var(--app-shell-header-offset, 0rem)" bg="var(--mantine-color-body)" style={{ zIndex: 3 }}>
      <Group justify="space-between" gap="sm">
        <Group gap="sm">
          <SegmentedControl
            aria-label={t('kind')}
            value={state.kind}
            onChange={(value) => onKind(value as DrawingKind)}
            data={DRAWING_KINDS.map((kind) => ({ value: kind, label: <IconLabel icon={KIND_ICONS[kind]} text={t(`kinds.${kind}`)} /> }))}
          />
          <Button variant="default" leftSection={<IconArrowBackUp size={16} aria-hidden />} onClick={onUndo} disabled={state.shapes.length === 0 && state.draft.length === 0}>
            {t('removeLast')}
          </Button>
        </Group>
        <Group gap="sm">
          <Text size="sm" c="dimmed" aria-live="polite">
            {t('count', { count: state.shapes.length })}
          </Text>
          {state.dirty && (
            <Badge color="yellow" variant="light">
              {t('unsaved')}
            </Badge>
          )}
          <Button leftSection={<IconDeviceFloppy size={16} aria-hidden />} onClick={onSave} loading={saving}>
            {t('save')}
          </Button>
        </Group>
      </Group>
      <Chip.Group value={state.label} onChange={(value) => onLabel(value as DrawingLabel)}>
        <Group gap={6} role="radiogroup" aria-label={t('labelClass')}>
          {DRAWING_LABELS.map((label) => (
            <Chip key={label} value={label} color={LABEL_COLORS[label]} variant="filled" size="sm">
              <Group gap={6} wrap="nowrap" component="span">
                {state.label !== label && <ColorSwatch color={LABEL_COLORS[label]} size={12} aria-hidden />}
                {t(`labels.${label}`)}
              </Group>
            </Chip>
          ))}
        </Group>
      </Chip.Group>
      <Status state={state} />
    </Stack>
  );
}

/** What the keyboard does, or what the shape being drawn still needs. */
function Status({ state }: { state: DrawingState }) {
  const { t } = useTranslation('drawings');
  if (state.tooFewPoints) {
    return (
      <Text size="sm" c="red" role="status">
        {t(`tooFewPoints.${state.kind}`)}
      </Text>
    );
  }
  if (state.draft.length > 0) {
    return (
      <Text size="sm" role="status">
        {t(`drafting.${state.kind}`, { count: state.draft.length, label: t(`labels.${state.label}`) })}
      </Text>
    );
  }
  const keys: [string, string][] = [
    ['Enter', t('help.enter')],
    ['Backspace', t('help.backspace')],
    ['Esc', t('help.escape')],
    ['Ctrl+Z', t('help.undo')],
  ];
  return (
    <Group gap="md" role="status">
      <Text size="xs" c="dimmed">
        {t('help.click')}
      </Text>
      {keys.map(([key, text]) => (
        <Text key={key} size="xs" c="dimmed">
          <Kbd size="xs">{key}</Kbd> {text}
        </Text>
      ))}
    </Group>
  );
}
