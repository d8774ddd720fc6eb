import { AuthenticatedImage } from '../../components/authenticated-image/authenticated-image';
import { useTranslation } from '../../i18n/use-translation';

/** A hit's thumbnail, fetched with the sign-in when it is ours; 'No preview' without one. */
export function HitThumbnail({ url, alt }: { url: string | undefined; alt: string }) {
  const { t } = useTranslation('search');
  return <AuthenticatedImage path={url} alt={alt} fallback={t('hit.noThumbnail')} width={120} height={160} />;
}
