import { useNotifications } from '@mantine/notifications';
import { lazy, Suspense, useState } from 'react';

/**
 * The toasts' code (their transitions, portal and scroll-lock styles) comes with the first toast,
 * not with every first load. A module of its own: a dynamic import of '@mantine/notifications',
 * which the first load has for `notifications.show`, would keep all of it there.
 */
const ToastStack = lazy(() => import('./toast-stack').then((m) => ({ default: m.ToastStack })));

/** Mounted at the first toast and kept from then on, so that the last one leaves with its transition. */
export function Toasts() {
  const shown = useNotifications().notifications.length > 0;
  const [wanted, setWanted] = useState(shown);
  if (shown && !wanted) setWanted(true);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <ToastStack />
    </Suspense>
  );
}
