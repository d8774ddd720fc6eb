import { Notifications } from '@mantine/notifications';

/** Mantine's toasts, top-right, loaded with the first one (see Toasts). */
export function ToastStack() {
  return <Notifications position="top-right" autoClose={10000} />;
}
