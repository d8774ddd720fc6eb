import { Box, Button, FileInput, Progress, Stack, Text, TextInput } from '@mantine/core';
import {
  createModelFieldsSchema,
  languageSchema,
  MODEL_KIND_INFO,
  MODEL_LABEL_MAX,
  type Language,
  type ModelKind,
} from '@pim/contract';
import { IconDeviceFloppy, IconFileUpload } from '@tabler/icons-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useCreateModel } from '../../api/models';
import { Spinner } from '../../components/spinner';
import { Typeahead } from '../../components/typeahead/typeahead';
import { useTranslation } from '../../i18n/use-translation';
import { listPath } from './model-screens';

const languageKey = (language: Language) => language.code;
const languageLabel = (language: Language) => `${language.name} (${language.code})`;

interface FormErrors {
  label?: string;
  language?: string;
  file?: string;
}

function hasAcceptedExtension(file: File, accept: readonly string[]): boolean {
  const name = file.name.toLowerCase();
  return accept.some((extension) => name.endsWith(extension.toLowerCase()));
}

/**
 * The create form of every kind: its name field (Title or Label), the language where the kind has
 * one, the file with the kind's extensions. The upload shows its progress, since models run to
 * hundreds of megabytes; the list follows when the server has taken the model.
 */
export function ModelForm({ kind }: { kind: ModelKind }) {
  const { t } = useTranslation('models');
  const navigate = useNavigate();
  const info = MODEL_KIND_INFO[kind];
  const create = useCreateModel(kind);
  const [label, setLabel] = useState('');
  const [language, setLanguage] = useState<Language | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<FormErrors>({});
  const [progress, setProgress] = useState<number | null>(null);
  const nameLabel = info.nameField === 'title' ? t('form.title') : t('form.label');
  // Leaving the form stops its upload rather than sending hundreds of megabytes nobody waits for.
  const upload = useRef<AbortController | null>(null);
  useEffect(() => () => upload.current?.abort(), []);

  const validate = (): FormErrors => {
    const found: FormErrors = {};
    const fields = createModelFieldsSchema.safeParse({ label, language: language?.code });
    if (!fields.success) found.label = fields.error.issues.find((issue) => issue.path[0] === 'label')?.message;
    if (info.hasLanguage && !language) found.language = t('form.languageRequired');
    if (!file) found.file = t('form.fileRequired');
    else if (!hasAcceptedExtension(file, info.accept)) found.file = t('form.fileType', { accept: info.accept.join(', ') });
    return found;
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validate();
    setErrors(found);
    if (found.label || found.language || found.file || !file) return;
    setProgress(0);
    upload.current = new AbortController();
    create.mutate(
      { fields: { label: label.trim(), language: language?.code }, file, onProgress: setProgress, signal: upload.current.signal },
      { onSuccess: () => void navigate(listPath(kind)), onError: () => setProgress(null) },
    );
  };

  const working = create.isPending;
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md" maw={640}>
        <TextInput
          label={nameLabel}
          withAsterisk
          value={label}
          maxLength={MODEL_LABEL_MAX}
          disabled={working}
          error={errors.label}
          onChange={(event) => {
            setLabel(event.currentTarget.value);
            setErrors((shown) => ({ ...shown, label: undefined }));
          }}
        />
        {info.hasLanguage && (
          <Typeahead
            label={t('form.language')}
            url="pim/language/autocomplete"
            itemSchema={languageSchema}
            getKey={languageKey}
            getLabel={languageLabel}
            value={language}
            onChange={(picked) => {
              setLanguage(picked);
              if (picked) setErrors((shown) => ({ ...shown, language: undefined }));
            }}
            disabled={working}
            withAsterisk
            error={errors.language}
          />
        )}
        <FileInput
          label={t(`kinds.${kind}.file`)}
          withAsterisk
          clearable
          accept={info.accept.join(',')}
          placeholder={t('form.choose', { accept: info.accept.join(', ') })}
          leftSection={<IconFileUpload size={16} aria-hidden />}
          value={file}
          disabled={working}
          error={errors.file}
          onChange={(picked) => {
            setFile(picked);
            setErrors((shown) => ({ ...shown, file: undefined }));
          }}
        />
        {progress !== null && (
          <Stack gap={4}>
            <Progress value={progress * 100} size="lg" animated={progress < 1} aria-label={t('form.progress')} />
            <Text size="sm" c="dimmed">
              {progress < 1 ? t('form.uploading', { percent: Math.round(progress * 100) }) : t('form.processing')}
            </Text>
          </Stack>
        )}
        {working && <Spinner />}
        <Box>
          <Button type="submit" loading={working} leftSection={<IconDeviceFloppy size={16} aria-hidden />}>
            {t('form.create')}
          </Button>
        </Box>
      </Stack>
    </form>
  );
}
