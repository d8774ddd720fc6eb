import { Alert, Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import type { DocumentImageSet } from '@pim/contract';
import { IconLock, IconSettings, IconTable } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useDeleteImageSet, useImageSet } from '../../api/imagesets';
import { DeleteButton, useConfirmedDelete } from '../../components/confirmed-delete';
import { Guarded } from '../../components/guarded';
import { Spinner } from '../../components/spinner';
import { UuidPage } from '../../frames/uuid-page';
import { useTranslation } from '../../i18n/use-translation';
import { AclModal } from './acl-modal';
import { ImageSetTree } from './image-set-tree';
import { CreateEpubButton, NewJobLink } from './set-jobs';
import { mayFrom } from './set-permissions';
import { SettingsModal } from './settings-modal';

type Dialog = 'settings' | 'acl' | null;

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
  const may = mayFrom(set.permissions);
  return (
    <>
      <Title order={2}>{set.imageset}</Title>
      {set.prettyName && <Text c="dimmed">{set.prettyName}</Text>}
      <Group gap="sm">
        <Guarded reason={may('WRITE') ? null : t('detail.mayNotChange')}>
          <Button variant="default" leftSection={<IconSettings size={16} aria-hidden />} onClick={() => setDialog('settings')}>
            {t('detail.settings')}
          </Button>
        </Guarded>
        {/* Everyone who may read the set may see who has access; changing that needs ADMIN on it. */}
        <Button variant="default" leftSection={<IconLock size={16} aria-hidden />} onClick={() => setDialog('acl')}>
          {t('detail.acl')}
        </Button>
        <Guarded reason={may('DELETE') ? null : t('detail.mayNotDelete')}>
          <DeleteButton onClick={() => confirmedDelete.ask(set)}>{t('detail.delete')}</DeleteButton>
        </Guarded>
        <CreateEpubButton set={set} refusal={may('WRITE') ? null : t('epub.mayNot')} />
        <NewJobLink set={set} refusal={may('WRITE') ? null : t('epub.mayNotRunJobs')} />
        <Anchor component={Link} to={`/documentimages?documentimagesetuuid=${encodeURIComponent(set.uuid)}`} size="sm">
          <Group gap={4} wrap="nowrap">
            <IconTable size={16} aria-hidden />
            {t('detail.allImages')}
          </Group>
        </Anchor>
      </Group>
      {dialog === 'settings' && <SettingsModal set={set} manageRefusal={may('ADMIN') ? null : t('detail.mayNotPublish')} onClose={close} />}
      {dialog === 'acl' && <AclModal subject={set.uuid} publicSet={set.publicDocumentImageSet} manageRefusal={may('ADMIN') ? null : t('detail.mayNotManage')} onClose={close} />}
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
      <ImageSetTree key={uuid} set={{ uuid, name: imageSet.data.imageset }} permissions={imageSet.data.permissions} />
    </Stack>
  );
}

export function ImageSetPage() {
  return <UuidPage>{(uuid) => <ImageSetDetail uuid={uuid} />}</UuidPage>;
}
