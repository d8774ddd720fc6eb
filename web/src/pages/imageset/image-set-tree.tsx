import { ActionIcon, Anchor, Loader, Menu, Text, Tooltip } from '@mantine/core';
import type { NamedRef } from '@pim/contract';
import { IconDots, IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { hierarchyKey, useHierarchy, useHierarchyChange } from '../../api/imagesets';
import { Tree, TreeFolder, TreeLeaf } from '../../components/tree/tree';
import { AddImageModal, AddSubsetModal } from './add-subset-modal';

// FilePond is only needed once someone uploads: keep it out of every other page's download.
const UploadModal = lazy(() =>
  import('../../components/upload-modal/upload-modal').then((m) => ({ default: m.UploadModal })),
);

type FolderModal = 'addImageset' | 'upload' | 'addImage' | null;

/** Remove takes the item out of its parent folder; the item itself stays. */
function RemoveButton({ parentUuid, kind, item }: { parentUuid: string; kind: 'subsets' | 'documentimages'; item: NamedRef }) {
  const { t } = useTranslation('imagesets');
  const change = useHierarchyChange(parentUuid);
  const label = t('tree.remove', { name: item.name });
  return (
    <Tooltip label={label}>
      <ActionIcon
        size="sm"
        variant="subtle"
        color="red"
        aria-label={label}
        loading={change.isPending}
        onClick={() => change.mutate({ action: 'remove', kind, uuid: item.uuid })}
      >
        <IconTrash size={14} />
      </ActionIcon>
    </Tooltip>
  );
}

/** The children of an open folder: asked for once, when the folder first opens. */
function FolderChildren({ setUuid }: { setUuid: string }) {
  const { t } = useTranslation('imagesets');
  const hierarchy = useHierarchy(setUuid);
  if (hierarchy.isPending) return <li><Loader size="xs" aria-label={t('tree.loading')} /></li>;
  if (hierarchy.isError) return <li><Text c="red" size="sm">{t('tree.loadFailed')}</Text></li>;
  const { subsets, images } = hierarchy.data;
  if (subsets.length === 0 && images.length === 0) return <li><Text c="dimmed" size="sm">{t('tree.empty')}</Text></li>;
  return (
    <>
      {subsets.map((subset) => (
        <SetFolder key={subset.id} set={{ uuid: subset.id, name: subset.name }} parentUuid={setUuid} />
      ))}
      {images.map((image) => (
        <TreeLeaf
          key={image.id}
          label={
            <Anchor
              component={Link}
              size="sm"
              to={`/documentimage?uuid=${encodeURIComponent(image.id)}&documentImageSetUuid=${encodeURIComponent(setUuid)}`}
            >
              {image.name}
            </Anchor>
          }
          actions={<RemoveButton parentUuid={setUuid} kind="documentimages" item={{ uuid: image.id, name: image.name }} />}
        />
      ))}
    </>
  );
}

function SetFolder({ set, parentUuid }: { set: NamedRef; parentUuid?: string }) {
  const { t } = useTranslation('imagesets');
  const queryClient = useQueryClient();
  const sort = useHierarchyChange(set.uuid);
  const [modal, setModal] = useState<FolderModal>(null);
  const close = () => setModal(null);
  const actions = (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon size="sm" variant="subtle" color="gray" aria-label={t('tree.actions', { name: set.name })} loading={sort.isPending}>
            <IconDots size={14} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item onClick={() => sort.mutate({ action: 'sort' })}>{t('tree.sort')}</Menu.Item>
          <Menu.Item onClick={() => setModal('addImageset')}>{t('tree.addImageset')}</Menu.Item>
          <Menu.Item onClick={() => setModal('upload')}>{t('tree.uploadImage')}</Menu.Item>
          <Menu.Item onClick={() => setModal('addImage')}>{t('tree.addImageFromSet')}</Menu.Item>
        </Menu.Dropdown>
      </Menu>
      {parentUuid && <RemoveButton parentUuid={parentUuid} kind="subsets" item={set} />}
    </>
  );
  return (
    <>
      <TreeFolder
        defaultOpen={!parentUuid}
        toggleLabel={(open) => t(open ? 'tree.close' : 'tree.open', { name: set.name })}
        label={
          <Anchor component={Link} size="sm" fw={parentUuid ? undefined : 700} to={`/imageset?uuid=${encodeURIComponent(set.uuid)}`}>
            {set.name}
          </Anchor>
        }
        actions={actions}
      >
        {() => <FolderChildren setUuid={set.uuid} />}
      </TreeFolder>
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

/** The set as the root folder, its sub-sets as folders and its images as leaves. */
export function ImageSetTree({ set }: { set: NamedRef }) {
  const { t } = useTranslation('imagesets');
  return (
    <Tree label={t('tree.label')}>
      <SetFolder set={set} />
    </Tree>
  );
}
