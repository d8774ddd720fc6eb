import { NativeSelect } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { changeLanguage, LANGUAGES } from './i18n';

export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const current = LANGUAGES.find((l) => i18n.resolvedLanguage === l.code)?.code ?? 'en';
  return (
    <NativeSelect
      size="xs"
      aria-label={t('nav.language')}
      value={current}
      onChange={(event) => changeLanguage(event.currentTarget.value)}
      data={LANGUAGES.map((l) => ({ value: l.code, label: l.label }))}
    />
  );
}
