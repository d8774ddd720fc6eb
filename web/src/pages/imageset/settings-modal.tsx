import { Button, Group, Modal, Stack, Switch, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { searchIndexSchema, type DocumentImageSet, type SearchIndex } from '@pim/contract';
import { useState } from 'react';
import { useUpdateImageSet } from '../../api/imagesets';
import { Guarded } from '../../components/guarded';
import { Typeahead } from '../../components/typeahead/typeahead';
import { useTranslation } from '../../i18n/use-translation';

const orNull = (text: string) => (text.trim() === '' ? null : text);

/**
 * Every editable field of the set; clearing the search index picker takes the set out of its index.
 * Making the set public changes who may see it, so that switch is for those who manage the set
 * (`manageRefusal` says why it is not, otherwise).
 */
export function SettingsModal({ set, manageRefusal, onClose }: { set: DocumentImageSet; manageRefusal: string | null; onClose: () => void }) {
  const { t } = useTranslation('imagesets');
  const update = useUpdateImageSet();
  const [name, setName] = useState(set.imageset);
  const [prettyName, setPrettyName] = useState(set.prettyName ?? '');
  const [description, setDescription] = useState(set.description ?? '');
  const [license, setLicense] = useState(set.license ?? '');
  const [publish, setPublish] = useState(set.publish);
  const [publicDataSet, setPublicDataSet] = useState(set.publicDataSet);
  const [publicSet, setPublicSet] = useState(set.publicDocumentImageSet);
  const [searchIndex, setSearchIndex] = useState<SearchIndex | null>(set.elasticSearchIndex);

  const save = () =>
    update.mutate(
      {
        uuid: set.uuid,
        imageset: name,
        prettyName: orNull(prettyName),
        description: orNull(description),
        license: orNull(license),
        publish,
        publicDataSet,
        ...(publicSet !== set.publicDocumentImageSet && { publicDocumentImageSet: publicSet }),
        elasticSearchIndex: searchIndex ? { uuid: searchIndex.uuid } : null,
      },
      {
        onSuccess: () => {
          notifications.show({ color: 'green', message: t('settings.saved') });
          onClose();
        },
      },
    );

  return (
    <Modal opened onClose={onClose} title={t('settings.title')} size="lg">
      <Stack gap="sm">
        <TextInput label={t('new.name')} value={name} onChange={(event) => setName(event.currentTarget.value)} required />
        <TextInput label={t('settings.prettyName')} value={prettyName} onChange={(event) => setPrettyName(event.currentTarget.value)} />
        <Textarea
          label={t('settings.description')}
          autosize
          minRows={3}
          value={description}
          onChange={(event) => setDescription(event.currentTarget.value)}
        />
        <Typeahead
          label={t('settings.searchIndex')}
          placeholder={t('settings.noSearchIndex')}
          url="pim/elasticsearchindex/autocomplete"
          itemSchema={searchIndexSchema}
          getKey={(index) => index.uuid}
          getLabel={(index) => index.name}
          value={searchIndex}
          onChange={setSearchIndex}
        />
        <TextInput label={t('settings.license')} value={license} onChange={(event) => setLicense(event.currentTarget.value)} />
        <Guarded reason={manageRefusal}>
          <Switch
            label={t('settings.public')}
            description={t('settings.publicHint')}
            checked={publicSet}
            onChange={(event) => setPublicSet(event.currentTarget.checked)}
          />
        </Guarded>
        <Switch label={t('settings.publish')} checked={publish} onChange={(event) => setPublish(event.currentTarget.checked)} />
        <Switch
          label={t('settings.publicDataSet')}
          checked={publicDataSet}
          onChange={(event) => setPublicDataSet(event.currentTarget.checked)}
        />
        <Group justify="flex-end">
          <Button onClick={save} disabled={name.trim() === ''} loading={update.isPending}>
            {t('settings.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
