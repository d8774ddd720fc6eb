import { PlainSelect } from '../components/plain-select';
import { useTranslation } from '../i18n/use-translation';
import { changeLanguage, LANGUAGES } from './i18n';

export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const current = LANGUAGES.find((l) => i18n.language === l.code)?.code ?? 'en';
  return (
    <PlainSelect
      size="xs"
      aria-label={t('nav.language')}
      value={current}
      onChange={(event) => changeLanguage(event.currentTarget.value)}
      data={LANGUAGES.map((l) => ({ value: l.code, label: l.label }))}
    />
  );
}
