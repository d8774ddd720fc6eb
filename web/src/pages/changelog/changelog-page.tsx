import { List, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from '../../i18n/use-translation';
import { RELEASE, ROADMAP, type ChangelogEntry } from './changelog-entries';

function Section({ title, entries, prefix }: { title: string; entries: readonly ChangelogEntry[]; prefix: string }) {
  const { t } = useTranslation('pages');
  return (
    <Stack gap="xs">
      <Title order={3}>{title}</Title>
      <List spacing={4}>
        {entries.map((entry) => (
          <List.Item key={entry.key}>{t(`${prefix}.${entry.key}`)}</List.Item>
        ))}
      </List>
    </Stack>
  );
}

export function ChangelogPage() {
  const { t } = useTranslation('pages');
  return (
    <Stack gap="lg" maw={900}>
      <Title order={2}>{t('changelog.title')}</Title>
      <Text c="dimmed">{t('changelog.intro')}</Text>
      <Section title={t('changelog.releaseTitle')} entries={RELEASE} prefix="changelog.release" />
      <Section title={t('changelog.roadmapTitle')} entries={ROADMAP} prefix="changelog.roadmap" />
    </Stack>
  );
}
