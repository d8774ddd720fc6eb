import 'filepond/dist/filepond.min.css';
import { Button, Group, Modal, Stack } from '@mantine/core';
import type { FilePondFile } from 'filepond';
import FilePondPluginFileValidateType from 'filepond-plugin-file-validate-type';
import { useState } from 'react';
import { FilePond, registerPlugin } from 'react-filepond';
import { useTranslation } from '../../i18n/use-translation';
import { UploadList } from './upload-list';
import { ACCEPTED_FILE_TYPES, isUploadable, uploadInOrder, type UploadItem, type UploadReport } from './upload-queue';

// The plugin gives the browser's file picker its `accept` list; the modal checks the files itself.
registerPlugin(FilePondPluginFileValidateType);

interface UploadModalProps {
  opened: boolean;
  setUuid: string;
  setName: string;
  onClose: () => void;
  /** Called once all files have been tried, so the tree can show what arrived. */
  onUploaded: () => void;
}

export function UploadModal({ opened, setUuid, setName, onClose, onUploaded }: UploadModalProps) {
  const { t } = useTranslation('imagesets');
  const [items, setItems] = useState<UploadItem[]>([]);
  const [uploading, setUploading] = useState(false);

  // FilePond is the drop area and the Browse button; each file it is given goes onto the one list
  // below, in the order chosen, and never onto FilePond's own list (which would show it twice).
  const addFile = (pondFile: FilePondFile) => {
    const file = pondFile.file as File;
    const uploadable = isUploadable(file);
    const item: UploadItem = { id: pondFile.id, file, uploadable, status: uploadable ? 'waiting' : 'failed' };
    if (!uploadable) item.message = t('upload.wrongType');
    setItems((previous) => [...previous, item]);
    return false;
  };

  const report: UploadReport = (id, change) =>
    setItems((previous) => previous.map((item) => (item.id === id ? { ...item, ...change } : item)));

  const start = async () => {
    setUploading(true);
    try {
      await uploadInOrder(setUuid, items, report);
    } finally {
      setUploading(false);
      onUploaded();
    }
  };

  const close = () => {
    if (uploading) return;
    setItems([]);
    onClose();
  };

  const pending = items.some((item) => item.uploadable && item.status !== 'done');

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={t('upload.title', { name: setName })}
      size="lg"
      closeOnEscape={!uploading}
      closeOnClickOutside={!uploading}
      closeButtonProps={{ disabled: uploading, 'aria-label': t('upload.close') }}
    >
      <Stack gap="md">
        <FilePond
          allowMultiple
          instantUpload={false}
          name="filepond"
          credits={false}
          disabled={uploading}
          acceptedFileTypes={ACCEPTED_FILE_TYPES}
          allowFileTypeValidation={false}
          beforeAddFile={addFile}
          labelIdle={t('upload.dropHere')}
        />
        {items.length > 0 && (
          <UploadList items={items} locked={uploading} onRemove={(id) => setItems((previous) => previous.filter((item) => item.id !== id))} />
        )}
        <Group justify="flex-end">
          <Button onClick={() => void start()} loading={uploading} disabled={!pending}>
            {t('upload.start')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
