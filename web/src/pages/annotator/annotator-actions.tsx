import { Anchor, Button, Group, Kbd, Stack, Text } from '@mantine/core';
import { useHotkeys } from '@mantine/hooks';
import { IconArrowLeft, IconArrowRight, IconDeviceFloppy, IconDownload, IconInfoCircle, IconTable } from '@tabler/icons-react';
import { Fragment } from 'react';
import { Link } from 'react-router';
import { useTranslation } from '../../i18n/use-translation';

const IS_MAC = typeof navigator !== 'undefined' && /Mac|iPhone|iPad|iPod/.test(navigator.userAgent);
const ALT = IS_MAC ? '⌥' : 'Alt';
const MOD = IS_MAC ? '⌘' : 'Ctrl';

type Action = 'previous' | 'save' | 'next';

/** One definition per shortcut: what useHotkeys listens for and what the hints and titles show. */
const SHORTCUTS: Record<Action, { hotkey: string; keys: string[] }> = {
  previous: { hotkey: 'alt+ArrowLeft', keys: [ALT, '←'] },
  save: { hotkey: 'mod+S', keys: [MOD, 'S'] },
  next: { hotkey: 'alt+ArrowRight', keys: [ALT, '→'] },
};
const ACTIONS: Action[] = ['previous', 'save', 'next'];

function ShortcutHints() {
  const { t } = useTranslation('annotator');
  return (
    <Group gap="md" aria-label={t('actions.shortcuts')} data-testid="shortcut-hints">
      {ACTIONS.map((action) => (
        <Text key={action} size="xs" c="dimmed">
          {SHORTCUTS[action].keys.map((key, index) => (
            <Fragment key={key}>
              {index > 0 && ' + '}
              <Kbd size="xs">{key}</Kbd>
            </Fragment>
          ))}{' '}
          {t(`actions.${action}`)}
        </Text>
      ))}
    </Group>
  );
}

interface AnnotatorActionsProps {
  /** The form is saving or waiting for its stored values: no action starts. */
  busy: boolean;
  saving: boolean;
  exporting: boolean;
  onPrevious: () => void;
  onSave: () => void;
  onNext: () => void;
  onExport: () => void;
  onShowManifestMetadata: () => void;
  overviewPath: string;
}

/**
 * Previous, Save and Next with their shortcuts, which work in every input too: annotating page
 * after page is typing, then Alt+→. Export, the manifest's metadata and the overview beneath.
 */
export function AnnotatorActions(props: AnnotatorActionsProps) {
  const { t } = useTranslation('annotator');
  const { busy, saving, exporting, onPrevious, onSave, onNext, onExport, onShowManifestMetadata, overviewPath } = props;
  useHotkeys(
    [
      [SHORTCUTS.previous.hotkey, onPrevious],
      [SHORTCUTS.save.hotkey, onSave],
      [SHORTCUTS.next.hotkey, onNext],
    ],
    [],
  );
  const title = (action: Action) => t('actions.withShortcut', { action: t(`actions.${action}`), keys: SHORTCUTS[action].keys.join('+') });

  return (
    <Stack gap="xs">
      <Group gap="xs">
        <Button variant="default" leftSection={<IconArrowLeft size={16} aria-hidden />} onClick={onPrevious} disabled={busy} title={title('previous')}>
          {t('actions.previous')}
        </Button>
        <Button leftSection={<IconDeviceFloppy size={16} aria-hidden />} onClick={onSave} loading={saving} disabled={busy} title={title('save')}>
          {t('actions.save')}
        </Button>
        <Button variant="default" rightSection={<IconArrowRight size={16} aria-hidden />} onClick={onNext} disabled={busy} title={title('next')}>
          {t('actions.next')}
        </Button>
      </Group>
      <ShortcutHints />
      <Group gap="xs">
        <Button variant="light" size="xs" leftSection={<IconDownload size={14} aria-hidden />} onClick={onExport} loading={exporting}>
          {t('actions.export')}
        </Button>
        <Button variant="light" size="xs" leftSection={<IconInfoCircle size={14} aria-hidden />} onClick={onShowManifestMetadata}>
          {t('actions.showManifestMetadata')}
        </Button>
        <Anchor component={Link} to={overviewPath} size="sm" style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}>
          <IconTable size={14} aria-hidden />
          {t('actions.overview')}
        </Anchor>
      </Group>
    </Stack>
  );
}
