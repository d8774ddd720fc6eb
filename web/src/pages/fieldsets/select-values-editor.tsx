import { ActionIcon, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { FIELD_TEXT_MAX } from '@pim/contract';
import { IconPlus, IconX } from '@tabler/icons-react';
import type { KeyboardEvent } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import type { DraftErrors, DraftValue } from './field-set-draft';
import { inputVariant } from './locked-input';

interface SelectValuesEditorProps {
  values: DraftValue[];
  /** The field's path in the errors ('fields.3'). */
  path: string;
  errors: DraftErrors;
  readOnly: boolean;
  /** The key of a value just added, focused when it appears. */
  focusKey: string | null;
  onAdd: () => void;
  onChange: (valueIndex: number, value: string) => void;
  onRemove: (valueIndex: number) => void;
}

/** The values a select field offers. Enter in the last value adds the next one, so a list can be typed in one go. */
export function SelectValuesEditor({ values, path, errors, readOnly, focusKey, onAdd, onChange, onRemove }: SelectValuesEditorProps) {
  const { t } = useTranslation('fieldsets');
  const listError = errors[`${path}.possibleValues`];

  const addOnEnter = (event: KeyboardEvent<HTMLInputElement>, valueIndex: number) => {
    if (event.key !== 'Enter') return;
    // Enter would otherwise submit the whole form.
    event.preventDefault();
    if (valueIndex === values.length - 1) onAdd();
  };

  return (
    <Stack gap={4} mt="xs" maw={560}>
      <Text size="sm" fw={500}>
        {t('values.title')}
      </Text>
      {values.map((option, valueIndex) => (
        <Group key={option.key} gap="xs" wrap="nowrap" align="flex-start">
          <TextInput
            size="xs"
            style={{ flex: 1 }}
            aria-label={t('values.value', { number: valueIndex + 1 })}
            placeholder={t('values.placeholder')}
            value={option.value}
            maxLength={FIELD_TEXT_MAX}
            variant={inputVariant(readOnly)}
            readOnly={readOnly}
            autoFocus={option.key === focusKey}
            error={errors[`${path}.possibleValues.${valueIndex}.value`]}
            onChange={(event) => onChange(valueIndex, event.currentTarget.value)}
            onKeyDown={(event) => addOnEnter(event, valueIndex)}
          />
          {!readOnly && (
            <ActionIcon
              variant="subtle"
              color="red"
              mt={2}
              aria-label={t('values.remove', { number: valueIndex + 1 })}
              // A select field needs at least one value: the last one can be changed, not removed.
              disabled={values.length <= 1}
              onClick={() => onRemove(valueIndex)}
            >
              <IconX size={16} aria-hidden />
            </ActionIcon>
          )}
        </Group>
      ))}
      {listError && (
        <Text size="xs" c="red">
          {listError}
        </Text>
      )}
      {!readOnly && (
        <Group>
          <Button variant="subtle" size="compact-sm" leftSection={<IconPlus size={14} aria-hidden />} onClick={onAdd}>
            {t('values.add')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}
