import { Button, Group, Stack } from '@mantine/core';
import { modelDownloadName, ROLE, type Model, type ModelKind } from '@pim/contract';
import { IconArrowLeft, IconDownload, IconLock, IconWorld } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import { useDownload } from '../../api/download';
import { modelBinaryPath, useModel, useSetModelPublic } from '../../api/models';
import { Guarded, useRoleRefusal } from '../../components/guarded';
import { Spinner } from '../../components/spinner';
import { useTranslation } from '../../i18n/use-translation';
import { LoadFailed } from '../users/load-failed';
import { formatDateTime } from '../documentimage/comparison/labels';
import { UuidCell } from './copy-uuid-button';
import { formatBytes } from '../../components/format/bytes';
import { listPath } from './model-screens';
import { PropertyTable } from './property-value';

/** The model's own fields first, in the order people look for them, then its configuration's. */
function modelEntries(model: Model, t: (key: string) => string, language: string): [string, unknown][] {
  return [
    [t('columns.label'), model.label],
    [t('columns.uuid'), <UuidCell key="uuid" uuid={model.uuid} />],
    ...(model.language ? [[t('columns.language'), `${model.language.name} (${model.language.code})`] as [string, unknown]] : []),
    [t('columns.publicModel'), model.publicModel],
    [t('columns.owner'), model.owner?.name ?? null],
    [t('columns.fileName'), model.fileName],
    [t('columns.size'), formatBytes(model.size, language)],
    [t('columns.created'), formatDateTime(model.created, language)],
    [t('columns.updated'), formatDateTime(model.updated, language)],
    ...Object.entries(model.properties),
  ];
}

/**
 * A Loghi HTR or Laypa model: every property as a name/value row, Back, Download and the switch
 * between private and public, which returns to the list.
 */
export function ModelDetail({ kind, uuid }: { kind: ModelKind; uuid: string }) {
  const { t, i18n } = useTranslation('models');
  const navigate = useNavigate();
  const model = useModel(kind, uuid);
  const visibility = useSetModelPublic(kind);
  const { download, busy } = useDownload();
  const adminRefusal = useRoleRefusal(ROLE.ADMIN);

  if (model.isError) return <LoadFailed error={model.error} forbidden={t('detail.forbidden')} failed={t('detail.loadFailed')} />;
  if (model.isPending || visibility.isPending) return <Spinner />;
  const current = model.data;
  const toggle = () =>
    visibility.mutate({ uuid, publicModel: !current.publicModel }, { onSuccess: () => void navigate(listPath(kind)) });
  const binary = modelBinaryPath(kind, uuid);
  return (
    <Stack gap="md" maw={900}>
      <Group gap="sm">
        <Button component={Link} to={listPath(kind)} variant="default" leftSection={<IconArrowLeft size={16} aria-hidden />}>
          {t('detail.back')}
        </Button>
        <Button
          variant="light"
          leftSection={<IconDownload size={16} aria-hidden />}
          loading={busy === binary}
          onClick={() => void download({ path: binary, query: { from: 'detail' }, fileName: modelDownloadName(current, 'detail') })}
        >
          {t('actions.download')}
        </Button>
        <Guarded reason={adminRefusal}>
          <Button variant="light" onClick={toggle} leftSection={current.publicModel ? <IconLock size={16} aria-hidden /> : <IconWorld size={16} aria-hidden />}>
            {current.publicModel ? t('detail.makePrivate') : t('detail.makePublic')}
          </Button>
        </Guarded>
      </Group>
      <PropertyTable entries={modelEntries(current, t, i18n.language)} label={t('detail.properties')} />
    </Stack>
  );
}
