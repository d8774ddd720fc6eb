import 'filepond/dist/filepond.min.css';
import { Badge, Button, Group, Modal, Stack, Table, Text } from '@mantine/core';
import { FileStatus, type FilePondFile } from 'filepond';
import FilePondPluginFileValidateType from 'filepond-plugin-file-validate-type';
import { useState } from 'react';
import { FilePond, registerPlugin } from 'react-filepond';
import { useTranslation } from 'react-i18next';
import { uploadInOrder, type UploadItem, type UploadStatus } from './upload-queue';

registerPlugin(FilePondPluginFileValidateType);

export const ACCEPTED_FILE_TYPES = ['image/*', 'application/pdf', 'application/xml', 'text/xml'];

/** Browsers give XML and hOCR files no type or a text one; the name tells what they are. */
function detectType(file: File, type: string): Promise<string> {
  return Promise.resolve(/\.(xml|hocr)$/i.test(file.name) ? 'application/xml' : type);
}

const STATUS_COLOR: Record<UploadStatus, string> = { waiting: 'gray', uploading: 'blue', done: 'green', failed: 'red' };

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

  // FilePond holds the chosen files and their order (it can reorder them); the list below shows each file's state.
  const chooseFiles = (files: FilePondFile[]) => {
    setItems((previous) =>
      files
        .filter((file) => file.status !== FileStatus.LOAD_ERROR)
        .map((file) => previous.find((item) => item.id === file.id) ?? { id: file.id, file: file.file as File, status: 'waiting' }),
    );
  };

  const report = (id: string, status: UploadStatus, message?: string) =>
    setItems((previous) => previous.map((item) => (item.id === id ? { ...item, status, message } : item)));

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

  const statusText = (status: UploadStatus) => t(`upload.status.${status === 'failed' ? 'done' : status}`);
  const pending = items.some((item) => item.status === 'waiting' || item.status === 'failed');

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
          allowReorder
          instantUpload={false}
          maxParallelUploads={1}
          name="filepond"
          credits={false}
          disabled={uploading}
          acceptedFileTypes={ACCEPTED_FILE_TYPES}
          fileValidateTypeDetectType={detectType}
          labelIdle={t('upload.dropHere')}
          onupdatefiles={chooseFiles}
        />
        {items.length > 0 && (
          <Table aria-label={t('upload.files')}>
            <Table.Tbody>
              {items.map((item) => (
                <Table.Tr key={item.id}>
                  <Table.Td>{item.file.name}</Table.Td>
                  <Table.Td>
                    <Badge color={STATUS_COLOR[item.status]} variant="light">
                      {statusText(item.status)}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    {item.message && (
                      <Text size="sm" c={item.status === 'failed' ? 'red' : 'dimmed'}>
                        {item.message}
                      </Text>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
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
