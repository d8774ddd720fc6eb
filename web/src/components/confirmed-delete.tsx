import { Button, type ButtonProps } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconTrash } from '@tabler/icons-react';
import { useCallback, useState, type ReactElement, type ReactNode } from 'react';
import { ConfirmDialog } from './confirm-dialog';

interface DeleteButtonProps extends Pick<ButtonProps, 'size' | 'disabled'> {
  children: ReactNode;
  onClick: () => void;
  /** Names the row in a list, where every row has its own Delete. */
  'aria-label'?: string;
}

/** The red Delete of lists (size xs) and detail screens. */
export function DeleteButton({ size, children, ...props }: DeleteButtonProps) {
  return (
    <Button size={size} variant="light" color="red" leftSection={<IconTrash size={size === 'xs' ? 14 : 16} aria-hidden />} {...props}>
      {children}
    </Button>
  );
}

interface ConfirmedDeleteOptions<T> {
  /** The delete mutation; its variable is the item's uuid. */
  remove: { mutate: (uuid: string, options: { onSuccess: () => void; onSettled: () => void }) => void; isPending: boolean };
  uuidOf: (item: T) => string;
  title: string;
  question: (item: T) => string;
  /** The green toast after a delete, if any. */
  deleted?: (item: T) => string;
  /** After a delete, e.g. back to the list from the deleted item's own screen. */
  onDeleted?: (item: T) => void;
}

/**
 * Delete after a Yes: `ask(item)` opens the question, `dialog` is the element to render. The dialog
 * closes when the delete ends, deleted or not (a failure shows its own toast).
 */
export function useConfirmedDelete<T>({ remove, uuidOf, title, question, deleted, onDeleted }: ConfirmedDeleteOptions<T>): {
  ask: (item: T) => void;
  dialog: ReactElement;
} {
  // The item asked about stays set while the dialog closes, so its question does not go blank.
  const [item, setItem] = useState<T | null>(null);
  const [asking, setAsking] = useState(false);
  const ask = useCallback((next: T) => {
    setItem(next);
    setAsking(true);
  }, []);
  const confirm = () => {
    if (item === null) return;
    remove.mutate(uuidOf(item), {
      onSuccess: () => {
        if (deleted) notifications.show({ color: 'green', message: deleted(item) });
        onDeleted?.(item);
      },
      onSettled: () => setAsking(false),
    });
  };
  const dialog = (
    <ConfirmDialog
      opened={asking}
      title={title}
      message={item === null ? '' : question(item)}
      busy={remove.isPending}
      onCancel={() => setAsking(false)}
      onConfirm={confirm}
    />
  );
  return { ask, dialog };
}
