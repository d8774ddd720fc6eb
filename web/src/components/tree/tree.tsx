import { ActionIcon, Box, Group } from '@mantine/core';
import { IconChevronDown, IconChevronRight, IconFile, IconFolder } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';

/** The outer list of a tree; folders nest their own lists inside. */
export function Tree({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box component="ul" role="tree" aria-label={label} m={0} p={0} style={{ listStyle: 'none' }}>
      {children}
    </Box>
  );
}

function Row({ icon, label, actions }: { icon: ReactNode; label: ReactNode; actions?: ReactNode }) {
  return (
    <Group gap={6} wrap="nowrap" py={2}>
      {icon}
      <Box style={{ flex: 1, minWidth: 0 }}>{label}</Box>
      {actions && (
        <Group gap={4} wrap="nowrap">
          {actions}
        </Group>
      )}
    </Group>
  );
}

interface TreeFolderProps {
  label: ReactNode;
  /** A folder icon unless given. */
  icon?: ReactNode;
  toggleLabel: (open: boolean) => string;
  actions?: ReactNode;
  defaultOpen?: boolean;
  /** Told when the folder opens or closes. */
  onOpenChange?: (open: boolean) => void;
  /** Rendered only while the folder is open, so a closed folder never asks for its children. */
  children: () => ReactNode;
}

export function TreeFolder({ label, icon, toggleLabel, actions, defaultOpen = false, onOpenChange, children }: TreeFolderProps) {
  const [open, setOpen] = useState(defaultOpen);
  const Chevron = open ? IconChevronDown : IconChevronRight;
  const toggle = () => {
    setOpen(!open);
    onOpenChange?.(!open);
  };
  return (
    <li role="treeitem" aria-expanded={open} aria-selected={false}>
      <Row
        icon={
          <Group gap={2} wrap="nowrap">
            <ActionIcon size="sm" variant="subtle" color="gray" aria-label={toggleLabel(open)} onClick={toggle}>
              <Chevron size={14} />
            </ActionIcon>
            {icon ?? <IconFolder size={16} aria-hidden />}
          </Group>
        }
        label={label}
        actions={actions}
      />
      {open && (
        <Box component="ul" role="group" m={0} pl={28} style={{ listStyle: 'none' }}>
          {children()}
        </Box>
      )}
    </li>
  );
}

/** `icon` (a file icon unless given) is indented to line up with the icons of folders. */
export function TreeLeaf({ label, icon, actions }: { label: ReactNode; icon?: ReactNode; actions?: ReactNode }) {
  return (
    <li role="treeitem" aria-selected={false}>
      <Row icon={<Box display="flex" ml={24}>{icon ?? <IconFile size={16} aria-hidden />}</Box>} label={label} actions={actions} />
    </li>
  );
}
