import { Alert, Anchor, Box, Button, List, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { ROLE, saveSearchIndexRequestSchema, type SearchIndex } from '@pim/contract';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { useSaveSearchIndex, useSearchIndex, useSearchIndexImageSets } from '../../api/searchindices';
import { fieldErrors } from '../../components/field-errors';
import { Guarded, useRoleRefusal } from '../../components/guarded';
import { Spinner } from '../../components/spinner';
import { EditPage } from '../../frames/edit-page';
import { useTranslation } from '../../i18n/use-translation';
import { LoadFailed } from '../users/load-failed';

/** The 'Title' field (the index's name), checked with the contract's rules for index names. */
function SearchIndexForm({ index }: { index: SearchIndex | null }) {
  const { t } = useTranslation('settings');
  const navigate = useNavigate();
  const save = useSaveSearchIndex(index?.uuid ?? null);
  const adminRefusal = useRoleRefusal(ROLE.ADMIN);
  const [name, setName] = useState(index?.name ?? '');
  const [touched, setTouched] = useState(false);
  const parsed = saveSearchIndexRequestSchema.safeParse({ name });
  const error = touched ? fieldErrors(parsed).name : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!parsed.success || adminRefusal !== null) return;
    save.mutate(parsed.data, {
      onSuccess: () => {
        notifications.show({ color: 'green', message: t('searchIndex.saved') });
        void navigate('/elasticsearchindices');
      },
    });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md" maw={640}>
        <TextInput
          label={t('searchIndex.title')}
          withAsterisk={adminRefusal === null}
          readOnly={adminRefusal !== null}
          variant={adminRefusal === null ? 'default' : 'filled'}
          value={name}
          onChange={(event) => {
            setName(event.currentTarget.value);
            setTouched(true);
          }}
          error={error}
        />
        <Box>
          <Guarded reason={adminRefusal}>
            <Button type="submit" loading={save.isPending} leftSection={<IconDeviceFloppy size={16} aria-hidden />}>
              {t('searchIndex.save')}
            </Button>
          </Guarded>
        </Box>
      </Stack>
    </form>
  );
}

/** The image sets that use the index (of those the caller may see), each linking to its page. */
function IndexImageSets({ uuid }: { uuid: string }) {
  const { t } = useTranslation('settings');
  const sets = useSearchIndexImageSets(uuid);
  let content;
  if (sets.isPending) content = <Spinner />;
  else if (sets.isError) content = <Alert color="red" title={t('searchIndex.imageSetsFailed')}>{sets.error.message}</Alert>;
  else if (sets.data.length === 0) content = <Text c="dimmed">{t('searchIndex.noImageSets')}</Text>;
  else {
    content = (
      <List aria-label={t('searchIndex.imageSets')}>
        {sets.data.map((set) => (
          <List.Item key={set.uuid}>
            <Anchor component={Link} to={`/imageset?uuid=${encodeURIComponent(set.uuid)}`}>
              {set.name}
            </Anchor>
          </List.Item>
        ))}
      </List>
    );
  }
  return (
    <Stack gap="xs">
      <Title order={3}>{t('searchIndex.imageSets')}</Title>
      {content}
    </Stack>
  );
}

function LoadedSearchIndex({ uuid }: { uuid: string }) {
  const { t } = useTranslation('settings');
  const index = useSearchIndex(uuid);
  if (index.isPending) return <Spinner />;
  if (index.isError) return <LoadFailed error={index.error} forbidden={t('searchIndex.loadFailed')} failed={t('searchIndex.loadFailed')} />;
  return (
    <Stack gap="xl">
      <SearchIndexForm key={index.data.uuid} index={index.data} />
      <IndexImageSets uuid={index.data.uuid} />
    </Stack>
  );
}

/** `/pim/elasticsearchindex[?uuid]`: a new index, or an index's name and the image sets that use it. */
export function SearchIndexPage() {
  const { t } = useTranslation('settings');
  return (
    <EditPage
      back={{ to: '/elasticsearchindices', label: t('searchIndex.back') }}
      newTitle={t('searchIndex.newTitle')}
      updateTitle={t('searchIndex.updateTitle')}
      saved={(uuid) => <LoadedSearchIndex uuid={uuid} />}
      fresh={<SearchIndexForm index={null} />}
      createRole={ROLE.ADMIN}
      refusedTitle={t('searchIndex.forbidden')}
    />
  );
}
