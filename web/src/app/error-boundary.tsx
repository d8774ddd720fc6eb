import { Alert, Button, Container, Text } from '@mantine/core';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError } from 'react-router';

export function errorMessage(error: unknown): string {
  if (isRouteErrorResponse(error)) return error.statusText || String(error.status);
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
 * started from, or the connection is gone. The router keeps the failed load, so only a reload helps.
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

/** Render failures inside a route: the nav bar stays, the screen shows the message. */
export function RouteErrorFallback() {
  const error = useRouteError();
  console.error(error);
  if (isScreenLoadFailure(error)) return <ScreenLoadFailed />;
  return <ErrorFallback message={errorMessage(error)} />;
}

interface BoundaryState {
  error: unknown;
}

/** The last line of defence, for whatever the router does not cover (the providers, the router itself). */
export class ErrorBoundary extends Component<{ children: ReactNode }, BoundaryState> {
  override state: BoundaryState = { error: null };

  static getDerivedStateFromError(error: unknown): BoundaryState {
    return { error };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error(error, info.componentStack);
  }

  override render() {
    if (this.state.error !== null) return <ErrorFallback message={errorMessage(this.state.error)} />;
    return this.props.children;
  }
}
