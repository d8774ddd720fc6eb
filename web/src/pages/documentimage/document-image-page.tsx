import { Alert, Anchor, Group, List, Stack, Table, Tabs, Text, Title } from '@mantine/core';
import type { DocumentImage } from '@pim/contract';
import { Link } from 'react-router';
import { useDocumentImage, useDocumentImageSets, useFieldDefinitions } from '../../api/documentimages';
import { MANUSCRIPT_FONT_FAMILY } from '../../components/manuscript-text/manuscript-text';
import { Spinner } from '../../components/spinner';
import { UuidPage } from '../../frames/uuid-page';
import { useTranslation } from '../../i18n/use-translation';
import { TranscriptionTabList, TranscriptionTabPanels } from './comparison/transcription-tabs';
import { useDocumentImageTab } from './comparison/url-state';
import { ImageTab } from './image-tab';

/** Fields that hold a transcription's text, shown in the manuscript face. */
const TEXT_FIELDS = new Set(['htrText', 'tesseractText']);

/** A field's value as text: references by name, lists joined, absent values empty. */
function fieldText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(fieldText).join(', ');
  if (typeof value === 'object') return 'name' in value ? String(value.name) : JSON.stringify(value);
  return String(value);
}

function FieldTable({ image }: { image: DocumentImage }) {
  const { t } = useTranslation('imagesets');
  const definitions = useFieldDefinitions();
  if (definitions.isPending) return <Spinner />;
  if (definitions.isError) return <Text c="red">{t('image.fieldsFailed')}</Text>;
  const values = image as Record<string, unknown>;
  return (
    <Table aria-label={t('image.fields')} withRowBorders>
      <Table.Tbody>
        {definitions.data.map((field) => (
          <Table.Tr key={field.name}>
            <Table.Th w={200}>{field.name}</Table.Th>
            <Table.Td
              style={{
                whiteSpace: 'pre-wrap',
                wordBreak: 'break-word',
                ...(TEXT_FIELDS.has(field.name) && { fontFamily: MANUSCRIPT_FONT_FAMILY }),
              }}
            >
              {fieldText(values[field.name])}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function ImageSetsUsing({ uuid }: { uuid: string }) {
  const { t } = useTranslation('imagesets');
  const sets = useDocumentImageSets(uuid);
  if (sets.isPending) return <Spinner />;
  if (sets.isError) return <Text c="red">{t('image.setsFailed')}</Text>;
  return (
    <Stack gap={4}>
      <Title order={4}>{t('image.usedIn')}</Title>
      <List size="sm">
        {sets.data.map((set) => (
          <List.Item key={set.uuid}>
            <Anchor component={Link} to={`/imageset?uuid=${encodeURIComponent(set.uuid)}`}>
              {set.name}
            </Anchor>
          </List.Item>
        ))}
      </List>
      <Anchor component={Link} size="sm" to={`/analyzeimage?id=${encodeURIComponent(uuid)}`}>
        {t('image.openViewer')}
      </Anchor>
    </Stack>
  );
}

function DocumentImageDetail({ uuid }: { uuid: string }) {
  const { t } = useTranslation('imagesets');
  const image = useDocumentImage(uuid);
  const [tab, setTab] = useDocumentImageTab('image');
  if (image.isPending) return <Spinner />;
  if (image.isError) return <Alert color="red">{t('image.loadFailed')}</Alert>;
  return (
    <Stack gap="md">
      <Title order={2}>{image.data.label}</Title>
      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="image">{t('image.imageTab')}</Tabs.Tab>
          <Tabs.Tab value="fields">{t('image.fieldsTab')}</Tabs.Tab>
          <TranscriptionTabList imageUuid={uuid} />
        </Tabs.List>
        <Tabs.Panel value="image" pt="sm">
          <ImageTab image={image.data} />
        </Tabs.Panel>
        <Tabs.Panel value="fields" pt="sm">
          <Group align="flex-start" gap="xl" wrap="wrap">
            <div style={{ flex: 2, minWidth: 320 }}>
              <FieldTable image={image.data} />
            </div>
            <div style={{ flex: 1, minWidth: 200 }}>
              <ImageSetsUsing uuid={uuid} />
            </div>
          </Group>
        </Tabs.Panel>
        <TranscriptionTabPanels imageUuid={uuid} />
      </Tabs>
    </Stack>
  );
}

export function DocumentImagePage() {
  return <UuidPage>{(uuid) => <DocumentImageDetail uuid={uuid} />}</UuidPage>;
}
