import type { NamedRef } from '@pim/contract';
import { useTranslation } from '../../i18n/use-translation';
import { SetThenImagePicker } from './set-then-image-picker';

const SETS = { url: 'pim/documentimageset/autocomplete' };
const imagesOf = (setUuid: string) => ({ url: 'pim/documentimage/autocomplete', params: { setUuid } });

/** An image chosen the way people find one: first its image set, then one of that set's images. */
export function ImagePicker({ image, onChange }: { image: NamedRef | null; onChange: (image: NamedRef | null) => void }) {
  const { t } = useTranslation('imagesets');
  return <SetThenImagePicker labels={{ set: t('tree.chooseImageset'), image: t('tree.chooseImage') }} sets={SETS} imagesOf={imagesOf} image={image} onChange={onChange} />;
}
