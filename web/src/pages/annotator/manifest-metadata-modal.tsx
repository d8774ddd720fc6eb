import { Modal, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from '../../i18n/use-translation';
import type { ManifestCanvas, MetadataEntry, ParsedManifest } from './manifest-canvases';

const LOOKS_LIKE_HTML = /<[a-z!/][^>]*>/i;

/**
 * IIIF allows a little HTML in metadata values. It is read as text: parsed in a document that is
 * never shown (no scripts run, nothing loads) and only its text is kept; nothing is put into the page as HTML.
 */
export function plainText(value: string): string {
  if (!LOOKS_LIKE_HTML.test(value)) return value;
  return new DOMParser().parseFromString(value, 'text/html').body.textContent ?? '';
}

function MetadataSection({ title, label, entries }: { title: string; label: string; entries: MetadataEntry[] }) {
  const { t } = useTranslation('annotator');
  return (
    <Stack gap="xs">
      <Title order={4}>{title}</Title>
      <Table withRowBorders variant="vertical" layout="fixed">
        <Table.Tbody>
          <Table.Tr>
            <Table.Th w="35%">{t('manifestMetadata.label')}</Table.Th>
            <Table.Td style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{plainText(label)}</Table.Td>
          </Table.Tr>
          {entries.map((entry, index) => (
            <Table.Tr key={index}>
              <Table.Th>{plainText(entry.label)}</Table.Th>
              <Table.Td style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{plainText(entry.value)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {entries.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('manifestMetadata.none')}
        </Text>
      )}
    </Stack>
  );
}

interface ManifestMetadataModalProps {
  opened: boolean;
  onClose: () => void;
  manifest: ParsedManifest;
  canvas: ManifestCanvas;
}

/** 'Show metadata from IIIF manifest': the manifest's label and metadata, then the current canvas's. */
export function ManifestMetadataModal({ opened, onClose, manifest, canvas }: ManifestMetadataModalProps) {
  const { t } = useTranslation('annotator');
  return (
    <Modal opened={opened} onClose={onClose} title={t('manifestMetadata.title')} size="xl">
      <Stack gap="lg">
        <MetadataSection title={t('manifestMetadata.manifest')} label={manifest.label} entries={manifest.metadata} />
        <MetadataSection title={t('manifestMetadata.canvas')} label={canvas.label} entries={canvas.metadata} />
      </Stack>
    </Modal>
  );
}
