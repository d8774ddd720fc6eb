import { Alert, Container } from '@mantine/core';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError } from 'react-router';

export function errorMessage(error: unknown): string {
  if (isRouteErrorResponse(error)) return error.statusText || String(error.status);
  if (error instanceof Error) return error.message;
  return String(error);
}

export function ErrorFallback({ message }: { message: string }) {
  const { t } = useTranslation();
  return (
    <Container size="md" py="xl">
      <Alert color="red" role="alert" title={t('errors.somethingWentWrong', { message })} />
    </Container>
  );
}

/** Render failures inside a route: the nav bar stays, the screen shows the message. */
export function RouteErrorFallback() {
  const error = useRouteError();
  console.error(error);
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
