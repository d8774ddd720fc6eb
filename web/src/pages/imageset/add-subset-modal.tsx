import { Button, Group, Modal, Stack } from '@mantine/core';
import { namedRefSchema, type NamedRef } from '@pim/contract';
import { useState } from 'react';
import { useHierarchyChange } from '../../api/imagesets';
import { ImagePicker } from '../../components/typeahead/image-picker';
import { Typeahead } from '../../components/typeahead/typeahead';
import { useTranslation } from '../../i18n/use-translation';

const refKey = (ref: NamedRef) => ref.uuid;
const refName = (ref: NamedRef) => ref.name;

/** 'Add imageset': puts an existing set into this folder. The folder itself is not offered. */
export function AddSubsetModal({ setUuid, onClose }: { setUuid: string; onClose: () => void }) {
  const { t } = useTranslation('imagesets');
  const change = useHierarchyChange(setUuid);
  const [chosen, setChosen] = useState<NamedRef | null>(null);
  const add = () => {
    if (!chosen) return;
    change.mutate({ action: 'add', kind: 'subsets', uuid: chosen.uuid }, { onSuccess: onClose });
  };
  return (
    <Modal opened onClose={onClose} title={t('tree.addImageset')} centered>
      <Stack gap="md">
        <Typeahead
          label={t('tree.chooseImageset')}
          url="pim/documentimageset/autocomplete"
          params={{ exclude: setUuid }}
          itemSchema={namedRefSchema}
          getKey={refKey}
          getLabel={refName}
          value={chosen}
          onChange={setChosen}
        />
        <Group justify="flex-end">
          <Button onClick={add} disabled={!chosen} loading={change.isPending}>
            {t('tree.add')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Adds an image of another set to this folder: first the set, then one of its images. */
export function AddImageModal({ setUuid, onClose }: { setUuid: string; onClose: () => void }) {
  const { t } = useTranslation('imagesets');
  const change = useHierarchyChange(setUuid);
  const [image, setImage] = useState<NamedRef | null>(null);
  const add = () => {
    if (!image) return;
    change.mutate({ action: 'add', kind: 'documentimages', uuid: image.uuid }, { onSuccess: onClose });
  };
  return (
    <Modal opened onClose={onClose} title={t('tree.addImageFromSet')} centered>
      <Stack gap="md">
        <ImagePicker image={image} onChange={setImage} />
        <Group justify="flex-end">
          <Button onClick={add} disabled={!image} loading={change.isPending}>
            {t('tree.add')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
