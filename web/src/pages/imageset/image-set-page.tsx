import { Alert, Button, Group, Stack, Text, Title, Tooltip } from '@mantine/core';
import type { AclPermission, DocumentImageSet } from '@pim/contract';
import { IconLock, IconSettings } from '@tabler/icons-react';
import { useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useDeleteImageSet, useImageSet } from '../../api/imagesets';
import { UuidPage } from '../../app/uuid-page';
import { DeleteButton, useConfirmedDelete } from '../../components/confirmed-delete';
import { Spinner } from '../../components/spinner';
import { AclModal } from './acl-modal';
import { ImageSetTree } from './image-set-tree';
import { SettingsModal } from './settings-modal';

type Dialog = 'settings' | 'acl' | null;

/** A button the caller's permissions on the set may not allow: then disabled, with the reason on hover. */
function Guarded({ allowed, reason, children }: { allowed: boolean; reason: string; children: ReactElement }) {
  if (allowed) return children;
  return (
    <Tooltip label={reason}>
      <span>{children}</span>
    </Tooltip>
  );
}

function ImageSetHeader({ set }: { set: DocumentImageSet }) {
  const { t } = useTranslation('imagesets');
  const navigate = useNavigate();
  const [dialog, setDialog] = useState<Dialog>(null);
  const close = () => setDialog(null);
  const confirmedDelete = useConfirmedDelete({
    remove: useDeleteImageSet(),
    uuidOf: (deleting: DocumentImageSet) => deleting.uuid,
    title: t('detail.deleteTitle'),
    question: (deleting) => t('detail.deleteQuestion', { name: deleting.imageset }),
    onDeleted: () => void navigate('/imagesets'),
  });
  // Older answers without permissions leave every button on; the server decides either way.
  const may = (permission: AclPermission) => set.permissions?.includes(permission) ?? true;
  return (
    <>
      <Title order={2}>{set.imageset}</Title>
      {set.prettyName && <Text c="dimmed">{set.prettyName}</Text>}
      <Group gap="sm">
        <Guarded allowed={may('WRITE')} reason={t('detail.mayNotChange')}>
          <Button
            variant="default"
            leftSection={<IconSettings size={16} aria-hidden />}
            disabled={!may('WRITE')}
            onClick={() => setDialog('settings')}
          >
            {t('detail.settings')}
          </Button>
        </Guarded>
        <Button variant="default" leftSection={<IconLock size={16} aria-hidden />} onClick={() => setDialog('acl')}>
          {t('detail.acl')}
        </Button>
        <Guarded allowed={may('DELETE')} reason={t('detail.mayNotDelete')}>
          <DeleteButton disabled={!may('DELETE')} onClick={() => confirmedDelete.ask(set)}>
            {t('detail.delete')}
          </DeleteButton>
        </Guarded>
      </Group>
      {dialog === 'settings' && <SettingsModal set={set} onClose={close} />}
      {dialog === 'acl' && <AclModal subject={set.uuid} onClose={close} />}
      {confirmedDelete.dialog}
    </>
  );
}

function ImageSetDetail({ uuid }: { uuid: string }) {
  const { t } = useTranslation('imagesets');
  const imageSet = useImageSet(uuid);
  if (imageSet.isPending) return <Spinner />;
  if (imageSet.isError) return <Alert color="red">{t('detail.loadFailed')}</Alert>;
  return (
    <Stack gap="md">
      <ImageSetHeader set={imageSet.data} />
      {/* Keyed by set: following a folder link to another set starts a fresh tree. */}
      <ImageSetTree key={uuid} set={{ uuid, name: imageSet.data.imageset }} />
    </Stack>
  );
}

export function ImageSetPage() {
  return <UuidPage>{(uuid) => <ImageSetDetail uuid={uuid} />}</UuidPage>;
}
