import { Alert, Anchor, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { DateEstimate, PimField } from '@pim/contract';
import { Link } from 'react-router';
import { useDateEstimate } from '../../api/similarity';
import { snippetLink, useScoreFormat } from '../../components/snippet-results/snippet-format';
import { useTranslation } from '../../i18n/use-translation';
import type { FieldValue, FormValues } from './form-values';

interface DateEstimateProps {
  imageUuid: string;
  model: string;
  fields: PimField[];
  /** The annotator's form: what the date and script fields hold now. */
  values: FormValues;
  /** Puts a value into the form, as typing would; the annotator's Save stores it. */
  onCopy: (fieldId: string, value: FieldValue) => void;
}

const year = (value: number) => String(Math.round(value));

function Neighbours({ neighbours }: { neighbours: DateEstimate['neighbours'] }) {
  const { t } = useTranslation('annotator');
  const score = useScoreFormat();
  return (
    <Table striped withTableBorder fz="xs" aria-label={t('similar.estimate.neighboursTable')}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('similar.estimate.image')}</Table.Th>
          <Table.Th>{t('similar.estimate.date')}</Table.Th>
          <Table.Th>{t('similar.estimate.distance')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {neighbours.map((neighbour) => (
          <Table.Tr key={neighbour.documentImageId}>
            <Table.Td>
              <Anchor component={Link} to={snippetLink(neighbour.snippet)} fz="xs">
                {neighbour.documentImageLabel}
              </Anchor>
            </Table.Td>
            <Table.Td>{neighbour.date ?? '–'}</Table.Td>
            <Table.Td>{score(neighbour.distance)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** A button that puts the estimate into a field of the form, or says the field holds it already. */
function CopyButton({ field, value, current, label, onCopy }: { field: PimField; value: string; current: FieldValue | undefined; label: string; onCopy: DateEstimateProps['onCopy'] }) {
  const { t } = useTranslation('annotator');
  if (current === value) {
    return (
      <Text size="xs" c="dimmed">
        {t('similar.estimate.holds', { field: field.label, value })}
      </Text>
    );
  }
  const copy = () => {
    onCopy(field.id, value);
    notifications.show({ color: 'blue', message: t('similar.estimate.copied', { field: field.label, value }) });
  };
  return (
    <Button size="xs" variant="light" onClick={copy}>
      {label}
    </Button>
  );
}

function Estimate({ estimate, dateField, scriptField, values, onCopy }: { estimate: DateEstimate; dateField: PimField; scriptField: PimField | undefined } & Pick<DateEstimateProps, 'values' | 'onCopy'>) {
  const { t } = useTranslation('annotator');
  const dated = estimate.neighbours.filter((neighbour) => neighbour.date !== null).length;
  return (
    <Stack gap="xs">
      {estimate.date === null || estimate.year === null ? (
        <Text size="sm">{estimate.reason ?? t('similar.estimate.none')}</Text>
      ) : (
        <>
          <Text fw={600} data-testid="date-estimate">
            {estimate.from !== null && estimate.to !== null
              ? t('similar.estimate.value', { year: year(estimate.year), from: year(estimate.from), to: year(estimate.to) })
              : t('similar.estimate.valueOnly', { year: year(estimate.year) })}
          </Text>
          <Text size="sm" c="dimmed">
            {t('similar.estimate.fromNeighbours', { count: dated })}
          </Text>
          {estimate.script && (
            <Text size="sm">
              {estimate.scriptShare === null
                ? t('similar.estimate.scriptOnly', { script: estimate.script })
                : t('similar.estimate.script', { script: estimate.script, share: Math.round(estimate.scriptShare * 100) })}
            </Text>
          )}
          <Group gap="xs">
            <CopyButton field={dateField} value={estimate.date} current={values[dateField.id]} label={t('similar.estimate.copyDate')} onCopy={onCopy} />
            {estimate.script && scriptField && (
              <CopyButton field={scriptField} value={estimate.script} current={values[scriptField.id]} label={t('similar.estimate.copyScript')} onCopy={onCopy} />
            )}
          </Group>
        </>
      )}
      {estimate.neighbours.length > 0 && <Neighbours neighbours={estimate.neighbours} />}
    </Stack>
  );
}

/**
 * The date of this image estimated from its nearest dated neighbours (their values of the field
 * set's first date field), with the script from its first script field when it has one.
 */
export function DateEstimatePanel({ imageUuid, model, fields, values, onCopy }: DateEstimateProps) {
  const { t } = useTranslation('annotator');
  const dateField = fields.find((field) => field.type === 'date');
  const scriptField = fields.find((field) => field.type === 'script');
  const estimate = useDateEstimate(dateField ? { imageUuid, model, dateField: dateField.id, ...(scriptField ? { scriptField: scriptField.id } : {}) } : null, { quiet: true });

  return (
    <Stack gap="xs">
      <Title order={5}>{t('similar.estimate.title')}</Title>
      {!dateField ? (
        <Text size="sm" c="dimmed">
          {t('similar.estimate.noDateField')}
        </Text>
      ) : estimate.isError ? (
        <Alert color="red">{t('similar.estimate.failed', { message: estimate.error.message })}</Alert>
      ) : estimate.isPending ? (
        <Text size="sm" c="dimmed">
          {t('similar.estimate.loading')}
        </Text>
      ) : (
        <Estimate estimate={estimate.data} dateField={dateField} scriptField={scriptField} values={values} onCopy={onCopy} />
      )}
    </Stack>
  );
}
