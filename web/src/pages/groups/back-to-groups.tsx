import { Anchor, Group } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export function BackToGroups() {
  const { t } = useTranslation('groups');
  return (
    <Anchor component={Link} to="/pimgroups" size="sm">
      <Group gap={4} component="span">
        <IconArrowLeft size={14} aria-hidden />
        {t('form.back')}
      </Group>
    </Anchor>
  );
}
