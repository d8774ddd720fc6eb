import { Alert, Grid, Stack, Text, Title } from '@mantine/core';
import type { SiameseSnippetResult } from '@pim/contract';
import type { UseQueryResult } from '@tanstack/react-query';
import { IconAlertTriangle, IconInfoCircle } from '@tabler/icons-react';
import { useCallback, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { useSimilarityModels } from '../../api/similarity';
import { SnippetResults } from '../../components/snippet-results/snippet-results';
import { Spinner } from '../../components/spinner';
import { useTranslation } from '../../i18n/use-translation';
import { RequireSignIn } from '../../session/require-sign-in';
import { chosenModel, ModelSelect } from './pickers';

export type ParamChanges = Record<string, string | null>;

/**
 * The address parameters of a page, and a change of some of them (null removes one, the others
 * stay). A choice that is worth going back to (a snippet) is a new history entry; settings replace.
 */
export function useAddressParams(): [URLSearchParams, (changes: ParamChanges, options?: { push?: boolean }) => void] {
  const [params, setParams] = useSearchParams();
  const change = useCallback(
    (changes: ParamChanges, options: { push?: boolean } = {}) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [name, value] of Object.entries(changes)) {
            if (value === null) next.delete(name);
            else next.set(name, value);
          }
          return next;
        },
        { replace: !options.push },
      ),
    [setParams],
  );
  return [params, change];
}

interface SimilarityPageProps {
  /** The route, which names the screen's title (`pages:screens.*`). */
  screen: string;
  /** Address parameters that belong to the model, dropped when another model is chosen. */
  modelParams?: string[];
  /** The page below the model choice, made anew for each model. */
  children: (model: string) => ReactNode;
}

/**
 * The frame of each similarity page: its title, the sign-in, and the model (`?model=`, else the
 * built-in descriptor or the first model with snippets).
 */
export function SimilarityPage({ screen, modelParams = [], children }: SimilarityPageProps) {
  const { t } = useTranslation('pages');
  return (
    <Stack gap="md">
      <Title order={2}>{t(`screens.${screen}`)}</Title>
      <RequireSignIn>
        <ModelChoice modelParams={modelParams}>{children}</ModelChoice>
      </RequireSignIn>
    </Stack>
  );
}

function ModelChoice({ modelParams, children }: { modelParams: string[]; children: (model: string) => ReactNode }) {
  const { t } = useTranslation('similarity');
  const models = useSimilarityModels();
  const [params, change] = useAddressParams();
  const model = chosenModel(models.data, params.get('model'));
  if (models.isError) return <Failure title={t('model.loadFailed')} error={models.error} />;
  if (models.isPending) return <Spinner />;
  if (model === null) {
    return (
      <Alert color="gray" icon={<IconInfoCircle aria-hidden />}>
        {t('model.none')}
      </Alert>
    );
  }
  const choose = (next: string) => change({ model: next, ...Object.fromEntries(modelParams.map((name) => [name, null])) });
  return (
    <Stack gap="md">
      <ModelSelect models={models.data} value={model} onChange={choose} />
      {/* The pickers and results belong to one model: another model starts them afresh. */}
      <Stack key={model} gap="md">
        {children(model)}
      </Stack>
    </Stack>
  );
}

/** The chooser on the left, the search on the right; one above the other on a narrow screen. */
export function TwoColumns({ left, right }: { left: ReactNode; right: ReactNode }) {
  return (
    <Grid gutter="xl">
      <Grid.Col span={{ base: 12, md: 5 }}>
        <Stack gap="sm">{left}</Stack>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 7 }}>
        <Stack gap="sm">{right}</Stack>
      </Grid.Col>
    </Grid>
  );
}

export function Failure({ title, error }: { title: string; error: Error }) {
  return (
    <Alert color="red" icon={<IconAlertTriangle aria-hidden />} title={title}>
      {error.message}
    </Alert>
  );
}

interface SearchOutcomeProps<T> {
  query: UseQueryResult<T>;
  /** What to choose before the search can run; null once it can (the query is then enabled). */
  waitingFor: string | null;
  children: (data: T) => ReactNode;
}

/** A search's place on the page: what to choose first, the spinner, the failure, or the answer. */
export function SearchOutcome<T>({ query, waitingFor, children }: SearchOutcomeProps<T>) {
  const { t } = useTranslation('similarity');
  if (waitingFor !== null) {
    return (
      <Text c="dimmed" role="status">
        {waitingFor}
      </Text>
    );
  }
  if (query.isError) return <Failure title={t('results.failed')} error={query.error} />;
  if (query.isPending) return <Spinner />;
  return <>{children(query.data)}</>;
}

interface SnippetSearchProps {
  /** The results' heading, which names their list too. */
  title: string;
  query: UseQueryResult<SiameseSnippetResult[]>;
  waitingFor: string | null;
  /** The search's options, between the heading and the results. */
  children?: ReactNode;
}

/** A snippet search's side of the page: its heading, its options, then its outcome as a result list. */
export function SnippetSearch({ title, query, waitingFor, children }: SnippetSearchProps) {
  return (
    <>
      <Title order={3}>{title}</Title>
      {children}
      <SearchOutcome query={query} waitingFor={waitingFor}>
        {(results) => <SnippetResults results={results} label={title} />}
      </SearchOutcome>
    </>
  );
}
