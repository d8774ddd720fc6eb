import { Alert, Badge, Group, Select, Stack, Text, type ComboboxItem, type SelectProps } from '@mantine/core';
import type { JobType, JobTypeListItem } from '@pim/contract';
import { IconClockPause } from '@tabler/icons-react';
import { useCallback, useMemo } from 'react';
import { useTranslation } from '../../i18n/use-translation';

interface JobTypeSelectProps {
  types: JobTypeListItem[];
  value: JobType | null;
  onChange: (type: JobType) => void;
}

/** The server's summary of a type (English), or its translation where the language has one. */
function useSummary() {
  const { t } = useTranslation('jobs');
  return useCallback((info: JobTypeListItem) => t(`typeSummaries.${info.type}`, { defaultValue: info.summary }), [t]);
}

/** Each type with its summary, and a mark on those no worker runs yet. */
function useRenderOption(types: JobTypeListItem[]): SelectProps['renderOption'] {
  const { t } = useTranslation('jobs');
  const summary = useSummary();
  return useMemo(() => {
    const byType = new Map(types.map((info) => [info.type, info]));
    return ({ option }: { option: ComboboxItem }) => {
      const info = byType.get(option.value as JobType);
      return (
        <Stack gap={0}>
          <Group gap="xs">
            <Text size="sm" fw={500}>
              {option.label}
            </Text>
            {info && !info.served && (
              <Badge size="xs" color="yellow" variant="light">
                {t('form.noWorkerBadge')}
              </Badge>
            )}
          </Group>
          {info && (
            <Text size="xs" c="dimmed">
              {summary(info)}
            </Text>
          )}
        </Stack>
      );
    };
  }, [types, t, summary]);
}

/**
 * The job type comes first: it decides which fields follow. A type that no worker serves is still
 * offered, with the note that its job will wait until one is started.
 */
export function JobTypeSelect({ types, value, onChange }: JobTypeSelectProps) {
  const { t } = useTranslation('jobs');
  const chosen = types.find((info) => info.type === value);
  const renderOption = useRenderOption(types);
  const summary = useSummary();
  return (
    <Stack gap="xs">
      <Select
        label={t('form.jobType')}
        placeholder={t('form.jobTypePlaceholder')}
        description={chosen && summary(chosen)}
        data={types.map((info) => info.type)}
        value={value}
        onChange={(next) => next && onChange(next as JobType)}
        renderOption={renderOption}
        searchable
        allowDeselect={false}
        maxDropdownHeight={420}
        withAsterisk
      />
      {chosen && !chosen.served && (
        <Alert color="yellow" variant="light" icon={<IconClockPause aria-hidden />}>
          {t('form.notServed', { type: chosen.type })}
        </Alert>
      )}
    </Stack>
  );
}
