import { Alert, Box, Button, Checkbox, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { FIELD_TEXT_MAX, type MetadataFieldType, type PimFieldSet } from '@pim/contract';
import { IconDeviceFloppy, IconInfoCircle, IconPlus } from '@tabler/icons-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { useFieldTypes, useSaveFieldSet } from '../../api/fieldsets';
import { useTranslation } from '../../i18n/use-translation';
import { FieldCard, type FieldActions } from './field-card';
import { DeleteFieldSetButton } from './delete-field-set-button';
import * as drafts from './field-set-draft';
import { inputVariant } from './locked-input';

interface FieldSetFormProps {
  /** The saved set, or null for a new one. */
  set: PimFieldSet | null;
  /** Loads the set again from the server; resolves with it, or with null when that failed. */
  reload?: () => Promise<PimFieldSet | null>;
}

/** Paths of the save schema that have an input of their own; other messages go in the summary. */
const PLACED_ERROR = /^(name|fields\.\d+(\.(label|name|description|type|possibleValues(\.\d+\.value)?))?)$/;

/** Until the server has answered, a field's type picker offers only the type it has. */
const NO_TYPES: readonly MetadataFieldType[] = [];

function unplacedMessages(errors: drafts.DraftErrors): string[] {
  return Object.entries(errors)
    .filter(([path]) => !PLACED_ERROR.test(path))
    .map(([, message]) => message);
}

/** The field operations of the cards, each applied to the current draft. */
function fieldActions(draft: drafts.FieldSetDraft, setDraft: (draft: drafts.FieldSetDraft) => void, setFocusKey: (key: string) => void) {
  return {
    change: (index, change) => setDraft(drafts.updateField(draft, index, change)),
    move: (index, offset) => setDraft(drafts.moveField(draft, index, offset)),
    remove: (index) => setDraft(drafts.removeField(draft, index)),
    addValue: (index) => {
      const added = drafts.addValue(draft, index);
      setDraft(added.draft);
      setFocusKey(added.key);
    },
    changeValue: (index, valueIndex, value) => setDraft(drafts.updateValue(draft, index, valueIndex, value)),
    removeValue: (index, valueIndex) => setDraft(drafts.removeValue(draft, index, valueIndex)),
  } satisfies FieldActions;
}

/**
 * The whole set in one form, validated on Save with the server's own schema. After the first Save
 * the messages follow the user's edits, so a fixed field loses its message at once. A set the
 * caller may not change is shown read-only, without Save or Delete.
 */
export function FieldSetForm({ set, reload }: FieldSetFormProps) {
  const { t } = useTranslation('fieldsets');
  const [, setSearchParams] = useSearchParams();
  const save = useSaveFieldSet();
  const fieldTypes = useFieldTypes();
  const [draft, setDraft] = useState(() => (set ? drafts.draftOf(set) : drafts.draftOfNewSet()));
  const [submitted, setSubmitted] = useState(false);
  const [reloaded, setReloaded] = useState(false);
  const [focusKey, setFocusKey] = useState<string | null>(null);
  const [invalidAttempts, setInvalidAttempts] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  const actions = fieldActions(draft, setDraft, setFocusKey);
  const readOnly = set !== null && !set.editable;
  const check = submitted ? drafts.checkDraft(draft) : null;
  const errors = check && !check.ok ? check.errors : {};

  // After a refused Save the first marked input takes the focus, however far down the list it is.
  useEffect(() => {
    if (invalidAttempts > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [invalidAttempts]);

  const restart = (next: drafts.FieldSetDraft) => {
    setDraft(next);
    setSubmitted(false);
  };

  const onSaveFailed = async () => {
    if (!reload) return;
    // Spec part 2 §8: a failed save reloads the set, so the form shows what the server holds.
    const fresh = await reload();
    if (!fresh) return;
    restart(drafts.draftOf(fresh));
    setReloaded(true);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Enter in an input submits a form even when it has no Save button.
    if (readOnly) return;
    setSubmitted(true);
    const result = drafts.checkDraft(draft);
    if (!result.ok) {
      setInvalidAttempts((n) => n + 1);
      return;
    }
    save.mutate(result.request, {
      onSuccess: (saved) => {
        notifications.show({ color: 'green', message: t('edit.saved') });
        setReloaded(false);
        // The saved set carries the uuids of new fields and values: later saves must send them.
        restart(drafts.draftOf(saved));
        if (!set) setSearchParams({ uuid: saved.uuid }, { replace: true });
      },
      onError: () => void onSaveFailed(),
    });
  };

  const addField = () => {
    const added = drafts.addField(draft);
    setDraft(added.draft);
    setFocusKey(added.key);
  };

  return (
    <form ref={formRef} onSubmit={submit} noValidate>
      <Stack gap="md">
        {readOnly && (
          <Alert color="blue" icon={<IconInfoCircle aria-hidden />} title={t('edit.readOnlyTitle')}>
            {t('edit.readOnly')}
          </Alert>
        )}
        {reloaded && (
          <Alert color="yellow" icon={<IconInfoCircle aria-hidden />} withCloseButton onClose={() => setReloaded(false)}>
            {t('edit.reloaded')}
          </Alert>
        )}
        <Group align="flex-start" gap="lg">
          <TextInput
            label={t('edit.name')}
            withAsterisk={!readOnly}
            value={draft.name}
            maxLength={FIELD_TEXT_MAX}
            variant={inputVariant(readOnly)}
            readOnly={readOnly}
            error={errors.name}
            onChange={(event) => setDraft({ ...draft, name: event.currentTarget.value })}
            style={{ flex: 1, minWidth: 240, maxWidth: 560 }}
          />
          <Checkbox
            mt={30}
            label={t('edit.public')}
            description={t('edit.publicDescription')}
            checked={draft.publicPimFieldSet}
            disabled={readOnly}
            onChange={(event) => setDraft({ ...draft, publicPimFieldSet: event.currentTarget.checked })}
            style={{ flex: 1, minWidth: 240 }}
          />
        </Group>
        {set?.owner && (
          <Text size="sm" c="dimmed">
            {t('edit.owner', { name: set.owner.name })}
          </Text>
        )}

        <Stack gap={4}>
          <Title order={3}>{t('edit.fields', { count: draft.fields.length })}</Title>
          <Text size="sm" c="dimmed">
            {t('edit.fieldsHint')}
          </Text>
        </Stack>
        <Stack gap="xs">
          {draft.fields.map((field, index) => (
            <FieldCard
              key={field.key}
              field={field}
              index={index}
              fieldCount={draft.fields.length}
              types={fieldTypes.data ?? NO_TYPES}
              errors={errors}
              readOnly={readOnly}
              focusKey={focusKey}
              actions={actions}
            />
          ))}
        </Stack>

        {check && !check.ok && (
          <Alert color="red" title={t('edit.invalid')}>
            {unplacedMessages(check.errors).map((message) => (
              <Text key={message} size="sm">
                {message}
              </Text>
            ))}
          </Alert>
        )}
        {!readOnly && (
          // The buttons stay in view at the bottom of the window, however long the list of fields is.
          <Box pos="sticky" bottom={0} py="sm" bg="var(--mantine-color-body)" style={{ zIndex: 2, borderTop: '1px solid var(--mantine-color-default-border)' }}>
            <Group justify="space-between">
              <Button variant="default" leftSection={<IconPlus size={16} aria-hidden />} onClick={addField}>
                {t('edit.addField')}
              </Button>
              <Group gap="sm">
                {set && <DeleteFieldSetButton set={set} disabled={save.isPending} />}
                <Button type="submit" leftSection={<IconDeviceFloppy size={16} aria-hidden />} loading={save.isPending}>
                  {t('edit.save')}
                </Button>
              </Group>
            </Group>
          </Box>
        )}
      </Stack>
    </form>
  );
}
