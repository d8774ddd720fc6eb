import { Alert, Box, Button, FileInput, Group, Stack, Switch, Text, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  FONT_FILE_ACCEPT,
  FONT_FLAGS,
  FONT_LICENSE_MAX,
  FONT_MAX_BYTES,
  FONT_NAME_MAX,
  FONT_TYPE_MAX,
  FONT_URI_MAX,
  fontDescriptionFormSchema,
  fontDownloadName,
  updateFontDescriptionRequestSchema,
  type FontDescription,
  type FontDescriptionForm,
} from '@pim/contract';
import { IconDeviceFloppy, IconDownload, IconLock } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useDownload } from '../../api/download';
import { fontBinaryPath, useCreateFontDescription, useUpdateFontDescription } from '../../api/fontdescriptions';
import { useTranslation } from '../../i18n/use-translation';

const EMPTY: FontDescriptionForm = {
  uri: '',
  name: '',
  type: '',
  license: '',
  handwritten: false,
  containsLongS: false,
  containsLigatures: false,
  romanScript: false,
  serif: false,
};

/** A file size as people read it: bytes, KB or MB. */
function fileSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}

function draftOf(font: FontDescription | null): FontDescriptionForm {
  if (!font) return EMPTY;
  const { uri, name, type, license, handwritten, containsLongS, containsLigatures, romanScript, serif } = font;
  return { uri, name, type, license, handwritten, containsLongS, containsLigatures, romanScript, serif };
}

/** The contract's messages per field, for what the user has filled in (a blank required field only disables Save). */
function fieldErrors(draft: FontDescriptionForm, saved: boolean): Partial<Record<keyof FontDescriptionForm, string>> {
  const schema = saved ? updateFontDescriptionRequestSchema : fontDescriptionFormSchema;
  const errors: Partial<Record<keyof FontDescriptionForm, string>> = {};
  for (const issue of schema.safeParse(draft).error?.issues ?? []) {
    const field = issue.path[0] as keyof FontDescriptionForm;
    if (String(draft[field]).trim() !== '' && !errors[field]) errors[field] = issue.message;
  }
  return errors;
}

interface FontDescriptionFormProps {
  /** The saved description, or null for a new one. */
  font: FontDescription | null;
  /** Administrators change font descriptions; others see them read-only. */
  canWrite: boolean;
}

/**
 * The fields of a font description. A new one takes the font file (only then: it cannot be
 * replaced); a saved one has its URI locked and offers its file for download.
 */
export function FontDescriptionFormView({ font, canWrite }: FontDescriptionFormProps) {
  const { t } = useTranslation('fonts');
  const navigate = useNavigate();
  const create = useCreateFontDescription();
  const update = useUpdateFontDescription();
  const { download, busy } = useDownload();
  const [draft, setDraft] = useState(() => draftOf(font));
  const [file, setFile] = useState<File | null>(null);
  const saved = font !== null;
  const errors = fieldErrors(draft, saved);
  const incomplete = draft.uri.trim() === '' || (saved ? draft.name.trim() === '' : file === null);
  const saving = create.isPending || update.isPending;
  const set = <K extends keyof FontDescriptionForm>(key: K, value: FontDescriptionForm[K]) => setDraft((d) => ({ ...d, [key]: value }));

  const done = () => {
    notifications.show({ color: 'green', message: t('form.saved') });
    void navigate('/fontdescriptions');
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!canWrite || incomplete || Object.keys(errors).length > 0) return;
    if (font) update.mutate({ uuid: font.uuid, request: updateFontDescriptionRequestSchema.parse(draft) }, { onSuccess: done });
    else if (file) create.mutate({ form: fontDescriptionFormSchema.parse(draft), file }, { onSuccess: done });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md" maw={720}>
        {!canWrite && (
          <Alert color="gray" icon={<IconLock aria-hidden />}>
            {t('form.readOnly')}
          </Alert>
        )}
        <TextInput
          label={t('form.uri')}
          withAsterisk={!saved}
          value={draft.uri}
          maxLength={FONT_URI_MAX}
          readOnly={saved || !canWrite}
          variant={saved ? 'filled' : 'default'}
          description={saved ? t('form.uriLocked') : t('form.uriHelp')}
          rightSection={saved ? <IconLock size={16} aria-hidden /> : undefined}
          error={saved ? undefined : errors.uri}
          onChange={(event) => set('uri', event.currentTarget.value)}
        />
        <TextInput
          label={t('form.name')}
          withAsterisk={saved}
          value={draft.name}
          maxLength={FONT_NAME_MAX}
          readOnly={!canWrite}
          placeholder={saved ? undefined : t('form.namePlaceholder')}
          error={errors.name}
          onChange={(event) => set('name', event.currentTarget.value)}
        />
        <TextInput
          label={t('form.type')}
          value={draft.type}
          maxLength={FONT_TYPE_MAX}
          readOnly={!canWrite}
          placeholder={saved ? undefined : t('form.typePlaceholder')}
          error={errors.type}
          onChange={(event) => set('type', event.currentTarget.value)}
        />
        <Textarea
          label={t('form.license')}
          value={draft.license}
          maxLength={FONT_LICENSE_MAX}
          readOnly={!canWrite}
          autosize
          minRows={2}
          error={errors.license}
          onChange={(event) => set('license', event.currentTarget.value)}
        />
        <Group gap="xl">
          {FONT_FLAGS.map((flag) => (
            <Switch
              key={flag}
              label={t(`form.${flag}`)}
              checked={draft[flag]}
              disabled={!canWrite}
              onChange={(event) => set(flag, event.currentTarget.checked)}
            />
          ))}
        </Group>
        {saved ? (
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              {t('form.storedFile')}
            </Text>
            <Text size="sm" c={font.hasData ? undefined : 'dimmed'}>
              {font.hasData ? `${font.fileName ?? ''} (${fileSize(font.sizeBytes ?? 0)})` : t('form.noFile')}
            </Text>
          </Stack>
        ) : (
          <FileInput
            label={t('form.file')}
            withAsterisk
            accept={FONT_FILE_ACCEPT}
            placeholder={t('form.filePlaceholder')}
            description={t('form.fileHelp', { max: FONT_MAX_BYTES / (1024 * 1024) })}
            value={file}
            clearable
            onChange={setFile}
          />
        )}
        <Group>
          {canWrite && (
            <Box>
              <Button type="submit" disabled={incomplete || Object.keys(errors).length > 0} loading={saving} leftSection={<IconDeviceFloppy size={16} aria-hidden />}>
                {t('form.save')}
              </Button>
            </Box>
          )}
          {font?.hasData && (
            <Button
              variant="light"
              leftSection={<IconDownload size={16} aria-hidden />}
              loading={busy === fontBinaryPath(font.uuid)}
              onClick={() => void download({ path: fontBinaryPath(font.uuid), fileName: fontDownloadName(font.uuid) })}
            >
              {t('form.download')}
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}
