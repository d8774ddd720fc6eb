import { Anchor, Group, Stack, Text } from '@mantine/core';
import { SEARCH_TEXT_FIELDS, type SearchHit } from '@pim/contract';
import { Link } from 'react-router';
import { MANUSCRIPT_FONT_FAMILY } from '../../components/manuscript-text/manuscript-text';
import { useTranslation } from '../../i18n/use-translation';
import { Highlighted } from './highlight';
import { HitThumbnail } from './hit-thumbnail';
import { languageName } from './language-filter';

/** The image page of a hit, on the first line it matched when the engine names one. */
export function hitLink(hit: SearchHit): string {
  const params = new URLSearchParams({ uuid: hit._source?.imageUuid ?? hit._id });
  const line = hit.fields?.pim_lines?.[0];
  if (line) params.set('line', line.id);
  return `/documentimage?${params.toString()}`;
}

/** The matched fragments of text, HTR and persons, in that order. */
function fragmentsOf(hit: SearchHit): string[] {
  return SEARCH_TEXT_FIELDS.flatMap((field) => hit.highlight?.[field] ?? []);
}

function ImageSets({ uuids, names }: { uuids: string[]; names: string[] }) {
  return (
    <Group gap={6} wrap="wrap">
      {names.map((name, i) => {
        const uuid = uuids[i];
        return uuid ? (
          <Anchor key={uuid} component={Link} to={`/imageset?uuid=${encodeURIComponent(uuid)}`} size="sm">
            {name}
          </Anchor>
        ) : (
          <Text key={i} size="sm">
            {name}
          </Text>
        );
      })}
    </Group>
  );
}

/** One hit: thumbnail, the image's label as the link that opens it, its sets and page, the matched text. */
export function SearchHitItem({ hit }: { hit: SearchHit }) {
  const { t, i18n } = useTranslation('search');
  const source = hit._source ?? {};
  const label = source.label || hit._id;
  const fragments = fragmentsOf(hit);
  const setNames = source.imageSet ?? [];
  return (
    <Group component="article" align="flex-start" gap="md" wrap="nowrap" aria-label={label} py="sm">
      <HitThumbnail url={source.thumbnail} alt={label} />
      <Stack gap={4} style={{ minWidth: 0, flex: 1 }}>
        <Anchor component={Link} to={hitLink(hit)} fw={600} title={t('hit.open')}>
          {label}
        </Anchor>
        <Group gap="md" wrap="wrap">
          {setNames.length > 0 && (
            <Group gap={6} wrap="nowrap">
              <Text size="sm" c="dimmed">
                {t(setNames.length > 1 ? 'hit.sets' : 'hit.set')}:
              </Text>
              <ImageSets uuids={source.imageSetUuid ?? []} names={setNames} />
            </Group>
          )}
          {source.pagenumber != null && (
            <Text size="sm" c="dimmed">
              {t('hit.page', { n: source.pagenumber })}
            </Text>
          )}
          {source.language && (
            <Text size="sm" c="dimmed">
              {t('hit.language')}: {languageName(source.language, i18n.language)}
            </Text>
          )}
        </Group>
        {fragments.length > 0 ? (
          <Stack gap={2} data-testid="hit-snippets">
            {fragments.map((fragment, i) => (
              <Text key={i} size="sm" style={{ fontFamily: MANUSCRIPT_FONT_FAMILY, overflowWrap: 'anywhere' }}>
                <Highlighted fragment={fragment} />
              </Text>
            ))}
          </Stack>
        ) : (
          (source.text || source.htr) && (
            <Text size="sm" lineClamp={3} style={{ fontFamily: MANUSCRIPT_FONT_FAMILY, overflowWrap: 'anywhere' }}>
              {source.text || source.htr}
            </Text>
          )
        )}
      </Stack>
    </Group>
  );
}
