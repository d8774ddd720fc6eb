import { ActionIcon, Menu } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { NamedRef } from '@pim/contract';
import { IconDots } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { hierarchyKey, useHierarchyChange } from '../../api/imagesets';
import { useTranslation } from '../../i18n/use-translation';
import { AddImageModal, AddSubsetModal } from './add-subset-modal';
import type { May } from './set-permissions';

// FilePond is only needed once someone uploads: keep it out of every other page's download.
const UploadModal = lazy(() =>
  import('../../components/upload-modal/upload-modal').then((m) => ({ default: m.UploadModal })),
);

type FolderModal = 'addImageset' | 'upload' | 'addImage' | null;

/** Sort with its progress and outcome in one toast: 'Sorting…', then how many items were put in order. */
function useSortWithFeedback(set: NamedRef) {
  const { t } = useTranslation('imagesets');
  const sort = useHierarchyChange(set.uuid);
  const run = () => {
    const id = `sort-${set.uuid}`;
    notifications.show({ id, loading: true, autoClose: false, withCloseButton: false, message: t('tree.sorting', { name: set.name }) });
    // The promise, unlike mutate's callbacks, settles even if the tree is left meanwhile: the toast never stays 'Sorting…'.
    sort
      .mutateAsync({ action: 'sort' })
      .then((hierarchy) => {
        const count = hierarchy.subsets.length + hierarchy.images.length;
        notifications.update({
          id,
          loading: false,
          color: 'green',
          autoClose: 5000,
          withCloseButton: true,
          message: count === 0 ? t('tree.nothingToSort', { name: set.name }) : t('tree.sorted', { name: set.name, count }),
        });
      })
      // The API client already toasts the server's message.
      .catch(() => notifications.hide(id));
  };
  return { run, pending: sort.isPending };
}

interface FolderMenuProps {
  set: NamedRef;
  may: May;
  /** Told when the menu opens, so a sub-set's permissions can be asked for. */
  onOpen: () => void;
}

/** A folder's actions: Sort, Add imageset, Upload image, Add image from another set; all need WRITE on the folder's set. */
export function FolderMenu({ set, may, onOpen }: FolderMenuProps) {
  const { t } = useTranslation('imagesets');
  const queryClient = useQueryClient();
  const sort = useSortWithFeedback(set);
  const [modal, setModal] = useState<FolderModal>(null);
  const close = () => setModal(null);
  const writable = may('WRITE');
  const item = (label: string, onClick: () => void) => (
    <Menu.Item onClick={onClick} disabled={!writable}>
      {label}
    </Menu.Item>
  );
  return (
    <>
      <Menu position="bottom-end" withinPortal onOpen={onOpen}>
        <Menu.Target>
          <ActionIcon size="sm" variant="subtle" color="gray" aria-label={t('tree.actions', { name: set.name })} loading={sort.pending}>
            <IconDots size={14} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          {!writable && <Menu.Label>{t('tree.mayNotChange')}</Menu.Label>}
          {item(t('tree.sort'), sort.run)}
          {item(t('tree.addImageset'), () => setModal('addImageset'))}
          {item(t('tree.uploadImage'), () => setModal('upload'))}
          {item(t('tree.addImageFromSet'), () => setModal('addImage'))}
        </Menu.Dropdown>
      </Menu>
      {modal === 'addImageset' && <AddSubsetModal setUuid={set.uuid} onClose={close} />}
      {modal === 'addImage' && <AddImageModal setUuid={set.uuid} onClose={close} />}
      {modal === 'upload' && (
        <Suspense fallback={null}>
          <UploadModal
            opened
            setUuid={set.uuid}
            setName={set.name}
            onClose={close}
            onUploaded={() => void queryClient.invalidateQueries({ queryKey: hierarchyKey(set.uuid) })}
          />
        </Suspense>
      )}
    </>
  );
}
