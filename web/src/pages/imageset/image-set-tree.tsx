import { ActionIcon, Anchor, Loader, Text, Tooltip } from '@mantine/core';
import type { AclPermission, NamedRef } from '@pim/contract';
import { IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { useHierarchy, useHierarchyChange } from '../../api/imagesets';
import { Tree, TreeFolder, TreeLeaf } from '../../components/tree/tree';
import { useTranslation } from '../../i18n/use-translation';
import { FolderMenu } from './folder-menu';
import { useSetPermissions, type May } from './set-permissions';

/** Remove takes the item out of its parent folder (which needs WRITE on the parent); the item itself stays. */
function RemoveButton({ parentUuid, kind, item, allowed }: { parentUuid: string; kind: 'subsets' | 'documentimages'; item: NamedRef; allowed: boolean }) {
  const { t } = useTranslation('imagesets');
  const change = useHierarchyChange(parentUuid);
  const label = t('tree.remove', { name: item.name });
  return (
    <Tooltip label={allowed ? label : t('tree.mayNotChange')}>
      <ActionIcon
        size="sm"
        variant="subtle"
        color="red"
        aria-label={label}
        disabled={!allowed}
        loading={change.isPending}
        onClick={() => change.mutate({ action: 'remove', kind, uuid: item.uuid })}
      >
        <IconTrash size={14} />
      </ActionIcon>
    </Tooltip>
  );
}

/** The children of an open folder: asked for once, when the folder first opens. */
function FolderChildren({ setUuid, may }: { setUuid: string; may: May }) {
  const { t } = useTranslation('imagesets');
  const hierarchy = useHierarchy(setUuid);
  if (hierarchy.isPending) return <li><Loader size="xs" aria-label={t('tree.loading')} /></li>;
  if (hierarchy.isError) return <li><Text c="red" size="sm">{t('tree.loadFailed')}</Text></li>;
  const { subsets, images } = hierarchy.data;
  if (subsets.length === 0 && images.length === 0) return <li><Text c="dimmed" size="sm">{t('tree.empty')}</Text></li>;
  const writable = may('WRITE');
  return (
    <>
      {subsets.map((subset) => (
        <SetFolder key={subset.id} set={{ uuid: subset.id, name: subset.name }} parent={{ uuid: setUuid, writable }} />
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
          actions={<RemoveButton parentUuid={setUuid} kind="documentimages" item={{ uuid: image.id, name: image.name }} allowed={writable} />}
        />
      ))}
    </>
  );
}

interface SetFolderProps {
  set: NamedRef;
  /** The root's permissions come with the page; a sub-set's are asked for when needed. */
  permissions?: readonly AclPermission[];
  /** The folder this one sits in, and whether the caller may change it (take this one out). */
  parent?: { uuid: string; writable: boolean };
}

function SetFolder({ set, permissions, parent }: SetFolderProps) {
  const { t } = useTranslation('imagesets');
  // An open folder or menu needs the set's permissions: they decide its actions and its children's Remove.
  const [wanted, setWanted] = useState(!parent);
  const may = useSetPermissions(set.uuid, permissions, wanted);
  return (
    <TreeFolder
      defaultOpen={!parent}
      onOpenChange={(open) => open && setWanted(true)}
      toggleLabel={(open) => t(open ? 'tree.close' : 'tree.open', { name: set.name })}
      label={
        <Anchor component={Link} size="sm" fw={parent ? undefined : 700} to={`/imageset?uuid=${encodeURIComponent(set.uuid)}`}>
          {set.name}
        </Anchor>
      }
      actions={
        <>
          <FolderMenu set={set} may={may} onOpen={() => setWanted(true)} />
          {parent && <RemoveButton parentUuid={parent.uuid} kind="subsets" item={set} allowed={parent.writable} />}
        </>
      }
    >
      {() => <FolderChildren setUuid={set.uuid} may={may} />}
    </TreeFolder>
  );
}

/** The set as the root folder, its sub-sets as folders and its images as leaves. */
export function ImageSetTree({ set, permissions }: { set: NamedRef; permissions?: readonly AclPermission[] }) {
  const { t } = useTranslation('imagesets');
  return (
    <Tree label={t('tree.label')}>
      <SetFolder set={set} permissions={permissions} />
    </Tree>
  );
}
