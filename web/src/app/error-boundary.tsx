import { Alert, Button, Container, Text } from '@mantine/core';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from '../i18n/use-translation';

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

export function ErrorFallback({ message, children }: { message: string; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Container size="md" py="xl">
      <Alert color="red" role="alert" title={t('errors.somethingWentWrong', { message })}>
        {children}
      </Alert>
    </Container>
  );
}

/** How Chromium, Firefox and Safari say that a module of a lazily loaded screen could not be fetched. */
const MODULE_FETCH_FAILURE = /dynamically imported module|Importing a module script failed/i;

/**
 * A screen's code the browser could not fetch: a new release replaced the files this tab was
 * started from, or the connection is gone. React.lazy keeps the failed load, so only a reload helps.
 */
function isScreenLoadFailure(error: unknown): boolean {
  return error instanceof TypeError && MODULE_FETCH_FAILURE.test(error.message);
}

function ScreenLoadFailed() {
  const { t } = useTranslation();
  return (
    <ErrorFallback message={t('errors.screenNotLoaded')}>
      <Text size="sm">{t('errors.screenNotLoadedHelp')}</Text>
      <Button mt="sm" variant="light" color="red" onClick={() => window.location.reload()}>
        {t('errors.reload')}
      </Button>
    </ErrorFallback>
  );
}

interface BoundaryProps {
  children: ReactNode;
  /** A screen's boundary: its location, whose next change (another screen, or another address of it) tries again. */
  resetKey?: unknown;
}

interface BoundaryState {
  error: unknown;
  resetKey: unknown;
}

/**
 * Around each screen, below the nav bar: a failing screen (its code, or its render) shows the
 * message there and the nav bar stays. Around the providers: the last line of defence.
 */
export class ErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    return props.resetKey === state.resetKey ? null : { error: null, resetKey: props.resetKey };
  }

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { error };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error(error, info.componentStack);
  }

  override render() {
    const { error } = this.state;
    if (error === null) return this.props.children;
    if (isScreenLoadFailure(error)) return <ScreenLoadFailed />;
    return <ErrorFallback message={errorMessage(error)} />;
  }
}
