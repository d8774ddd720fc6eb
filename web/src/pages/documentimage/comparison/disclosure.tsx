import { Box, Button } from '@mantine/core';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import { useId, useState, type ReactNode } from 'react';

/**
 * A section opened on request. Its content is mounted only while open, so what it computes is
 * computed only for a reader who asked for it.
 */
export function Disclosure({ label, children }: { label: string; children: () => ReactNode }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const Icon = open ? IconChevronDown : IconChevronRight;
  return (
    <Box>
      <Button
        variant="subtle"
        px={4}
        aria-expanded={open}
        aria-controls={id}
        leftSection={<Icon size={16} aria-hidden />}
        onClick={() => setOpen((o) => !o)}
      >
        {label}
      </Button>
      <Box id={id} hidden={!open} pt="xs">
        {open && children()}
      </Box>
    </Box>
  );
}
