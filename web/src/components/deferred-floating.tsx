import { startTransition, Suspense, useEffect, useRef, useState, type ReactElement, type ReactNode } from 'react';

/** What the plain trigger tells the real one that replaces it: whether it had the focus, known as it is taken out. */
export interface Handover {
  focused: boolean;
}

export interface PlainTriggerProps {
  ref: (node: HTMLElement | null) => () => void;
  onPointerEnter: () => void;
  onFocus: () => void;
  onClick?: () => void;
  'aria-haspopup'?: 'menu' | 'dialog';
  'aria-expanded'?: false;
}

interface DeferredFloatingProps {
  /** The real one's module: pointing at or focusing the trigger starts loading it, so a click seldom waits. */
  load: () => Promise<unknown>;
  /** A menu or popover (`dialog`) mounts at the first click (Enter and Space too), a tooltip when first pointed at. */
  popup: 'menu' | 'dialog' | 'tooltip';
  /** The plain trigger, spread with the props given. */
  trigger: (props: PlainTriggerProps) => ReactElement;
  /** The real one, a lazy component rendering its Mantine Menu, Popover or Tooltip around the same trigger. */
  children: (handover: Handover) => ReactNode;
}

/**
 * A menu, popover or tooltip whose code (Mantine's floating layer: positioning, focus trap,
 * transitions, some 25 kB gzip) comes with its first use instead of with every first load. Until
 * then its trigger is a plain one that looks, is labelled and announces itself the same. The real
 * one is mounted in a transition, so the plain trigger stays in place until its code is there.
 */
export function DeferredFloating({ load, popup, trigger, children }: DeferredFloatingProps) {
  const [wanted, setWanted] = useState(false);
  const [handover] = useState<Handover>(() => ({ focused: false }));
  const preload = () => void load();
  const want = () => {
    preload();
    startTransition(() => setWanted(true));
  };
  const plain = trigger({
    // Read as the plain trigger is taken out, while it still has the focus it had.
    ref: (node) => () => {
      handover.focused = node !== null && document.activeElement === node;
    },
    onFocus: preload,
    ...(popup === 'tooltip'
      ? { onPointerEnter: want }
      : { onPointerEnter: preload, onClick: want, 'aria-haspopup': popup, 'aria-expanded': false }),
  });
  return <Suspense fallback={plain}>{wanted ? children(handover) : plain}</Suspense>;
}

/**
 * The ref for the real one's target, which replaces the plain trigger: it takes the focus the plain
 * one had, and a menu's or popover's is clicked once more, so that Mantine opens it as it opens on
 * any click (with its transition, noting where the focus goes back to on close).
 */
export function useHandover<T extends HTMLElement>(handover: Handover, { click }: { click: boolean }) {
  const target = useRef<T>(null);
  const done = useRef(false);
  useEffect(() => {
    // Once, also where StrictMode runs the effect twice.
    if (done.current) return;
    done.current = true;
    if (handover.focused) target.current?.focus();
    if (click) target.current?.click();
  }, [handover, click]);
  return target;
}
