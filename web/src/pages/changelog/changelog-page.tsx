import { List, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

function Section({ titleKey, itemsKey }: { titleKey: string; itemsKey: string }) {
  const { t } = useTranslation('pages');
  const value: unknown = t(itemsKey, { returnObjects: true });
  const items = Array.isArray(value) ? value.map(String) : [];
  return (
    <Stack gap="xs">
      <Title order={3}>{t(titleKey)}</Title>
      <List spacing={4}>
        {items.map((item) => (
          <List.Item key={item}>{item}</List.Item>
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
      <Section titleKey="changelog.releaseTitle" itemsKey="changelog.release" />
      <Section titleKey="changelog.roadmapTitle" itemsKey="changelog.roadmap" />
    </Stack>
  );
}
