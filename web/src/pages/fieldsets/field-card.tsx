import { ActionIcon, Badge, Checkbox, Grid, Group, Paper, Select, Text, TextInput } from '@mantine/core';
import { FIELD_TEXT_MAX, type MetadataFieldType } from '@pim/contract';
import { IconArrowDown, IconArrowUp, IconLock, IconTrash } from '@tabler/icons-react';
import { useTranslation } from '../../i18n/use-translation';
import { isFixedField, type DraftErrors, type DraftField, type FieldChange } from './field-set-draft';
import { inputVariant } from './locked-input';
import { SelectValuesEditor } from './select-values-editor';

/** What a card may do to the form's draft; every call names the field by its index. */
export interface FieldActions {
  change: (index: number, change: FieldChange) => void;
  move: (index: number, offset: -1 | 1) => void;
  remove: (index: number) => void;
  addValue: (index: number) => void;
  changeValue: (index: number, valueIndex: number, value: string) => void;
  removeValue: (index: number, valueIndex: number) => void;
}

interface FieldCardProps {
  field: DraftField;
  index: number;
  fieldCount: number;
  types: readonly MetadataFieldType[];
  errors: DraftErrors;
  readOnly: boolean;
  /** The key of a field or value just added, focused when it appears. */
  focusKey: string | null;
  actions: FieldActions;
}

function CardActions({ index, fieldCount, actions }: Pick<FieldCardProps, 'index' | 'fieldCount' | 'actions'>) {
  const { t } = useTranslation('fieldsets');
  const number = index + 1;
  return (
    <Group gap={4} wrap="nowrap">
      <ActionIcon variant="subtle" aria-label={t('field.moveUp', { number })} disabled={isFixedField(index - 1)} onClick={() => actions.move(index, -1)}>
        <IconArrowUp size={16} aria-hidden />
      </ActionIcon>
      <ActionIcon variant="subtle" aria-label={t('field.moveDown', { number })} disabled={index >= fieldCount - 1} onClick={() => actions.move(index, 1)}>
        <IconArrowDown size={16} aria-hidden />
      </ActionIcon>
      <ActionIcon variant="subtle" color="red" aria-label={t('field.remove', { number })} onClick={() => actions.remove(index)}>
        <IconTrash size={16} aria-hidden />
      </ActionIcon>
    </Group>
  );
}

/**
 * One field of the set, compact enough that a set of many fields stays readable: its texts and type
 * on one row on a wide screen, the type also as a badge in the card's header. The fixed first two
 * fields show label, name and type read-only and cannot be moved or removed.
 */
export function FieldCard({ field, index, fieldCount, types, errors, readOnly, focusKey, actions }: FieldCardProps) {
  const { t } = useTranslation('fieldsets');
  const fixed = isFixedField(index);
  const path = `fields.${index}`;
  const typeOptions = (types.includes(field.type) ? types : [...types, field.type]).map((type) => ({ value: type, label: t(`types.${type}`) }));
  const change = (next: FieldChange) => actions.change(index, next);
  const locked = readOnly || fixed;

  return (
    <Paper withBorder p="sm" role="group" aria-label={t('field.group', { number: index + 1 })}>
      <Group justify="space-between" wrap="nowrap" mb={4}>
        <Group gap="xs" wrap="wrap">
          <Text fw={600} size="sm">
            {index + 1}. {field.label.trim() || t('field.untitled')}
          </Text>
          <Badge variant="light" size="sm">
            {t(`types.${field.type}`)}
          </Badge>
          {fixed && (
            <Badge variant="outline" color="gray" size="sm" leftSection={<IconLock size={12} aria-hidden />}>
              {t('field.fixed')}
            </Badge>
          )}
        </Group>
        {!readOnly && !fixed && <CardActions index={index} fieldCount={fieldCount} actions={actions} />}
      </Group>
      {errors[path] && (
        <Text size="xs" c="red" mb={4}>
          {errors[path]}
        </Text>
      )}
      <Grid gutter="xs">
        <Grid.Col span={{ base: 12, sm: 6, lg: 2.5 }}>
          <TextInput
            size="xs"
            label={t('field.label')}
            withAsterisk={!locked}
            value={field.label}
            maxLength={FIELD_TEXT_MAX}
            variant={inputVariant(locked)}
            readOnly={locked}
            autoFocus={field.key === focusKey}
            error={errors[`${path}.label`]}
            onChange={(event) => change({ label: event.currentTarget.value })}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 6, lg: 2.5 }}>
          <TextInput
            size="xs"
            label={t('field.name')}
            withAsterisk={!locked}
            value={field.name}
            maxLength={FIELD_TEXT_MAX}
            variant={inputVariant(locked)}
            readOnly={locked}
            error={errors[`${path}.name`]}
            onChange={(event) => change({ name: event.currentTarget.value })}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 6, lg: 2 }}>
          <Select
            size="xs"
            label={t('field.type')}
            data={typeOptions}
            value={field.type}
            allowDeselect={false}
            variant={inputVariant(locked)}
            readOnly={locked}
            error={errors[`${path}.type`]}
            onChange={(type) => type && change({ type: type as MetadataFieldType })}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 6, lg: 3 }}>
          <TextInput
            size="xs"
            label={t('field.description')}
            value={field.description}
            maxLength={FIELD_TEXT_MAX}
            variant={inputVariant(readOnly)}
            readOnly={readOnly}
            error={errors[`${path}.description`]}
            onChange={(event) => change({ description: event.currentTarget.value })}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 2 }}>
          <Checkbox
            mt={{ lg: 22 }}
            size="xs"
            label={t('field.copyValue')}
            description={t('field.copyValueDescription')}
            checked={field.copyValue}
            disabled={readOnly}
            onChange={(event) => change({ copyValue: event.currentTarget.checked })}
          />
        </Grid.Col>
      </Grid>
      {field.type === 'select' && (
        <SelectValuesEditor
          values={field.possibleValues}
          path={path}
          errors={errors}
          readOnly={readOnly}
          focusKey={focusKey}
          onAdd={() => actions.addValue(index)}
          onChange={(valueIndex, value) => actions.changeValue(index, valueIndex, value)}
          onRemove={(valueIndex) => actions.removeValue(index, valueIndex)}
        />
      )}
    </Paper>
  );
}
