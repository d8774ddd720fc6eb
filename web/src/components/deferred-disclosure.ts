import { useDisclosure } from '@mantine/hooks';
import { useState } from 'react';

/**
 * useDisclosure for a dialog whose code is loaded when it is first opened: `wanted` turns true at
 * the first open and stays, so the dialog stays mounted from then on and closing it plays its
 * transition.
 */
export function useDeferredDisclosure() {
  const [opened, { open, close }] = useDisclosure(false);
  const [wanted, setWanted] = useState(false);
  const openFirst = () => {
    setWanted(true);
    open();
  };
  return { opened, wanted, open: openFirst, close };
}
