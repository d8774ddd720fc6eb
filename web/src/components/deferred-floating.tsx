import { startTransition, Suspense, useEffect, useRef, useState, type ReactElement, type ReactNode } from 'react';

/** What the plain trigger tells the real one that replaces it. */
export interface Handover {
  /** Whether it had the focus, known as it is taken out. */
  focused: boolean;
  /** What was typed between the click that opened a popover and its code's arrival, for the field that then takes the focus. */
  typed: string;
  /** Stops keeping what is typed; there while it is kept. */
  stopKeeping?: () => void;
}

/** Whether keys typed here are the element's own (a field the person is typing in). */
function isField(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLInputElement ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement ||
    (target instanceof HTMLElement && target.isContentEditable)
  );
}

/**
 * Keeps the letters typed from now until the popover's field takes the focus: a person who clicks
 * a filter and types at once would otherwise lose them to the trigger while the code comes.
 */
function keepTyping(handover: Handover): void {
  if (handover.stopKeeping) return;
  const onKey = (event: KeyboardEvent) => {
    if (event.key.length !== 1 || event.ctrlKey || event.metaKey || event.altKey || isField(event.target)) return;
    handover.typed += event.key;
    event.preventDefault();
  };
  document.addEventListener('keydown', onKey, true);
  handover.stopKeeping = () => {
    document.removeEventListener('keydown', onKey, true);
    handover.stopKeeping = undefined;
  };
}

/** Types `text` at the end of a field, as the person would have: React sees an input event. */
function typeInto(field: HTMLInputElement | HTMLTextAreaElement, text: string): void {
  const prototype = field instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(prototype, 'value')?.set?.call(field, field.value + text);
  field.dispatchEvent(new Event('input', { bubbles: true }));
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
  const [handover] = useState<Handover>(() => ({ focused: false, typed: '' }));
  // Gone before its code came: what was typed goes nowhere.
  useEffect(
    () => () => {
      handover.stopKeeping?.();
      handover.typed = '';
    },
    [handover],
  );
  const preload = () => void load();
  const want = () => {
    preload();
    if (popup === 'dialog') keepTyping(handover);
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
 * any click (with its transition, noting where the focus goes back to on close). What was typed
 * meanwhile goes into the popover's field that takes the focus.
 */
export function useHandover<T extends HTMLElement>(handover: Handover, { click }: { click: boolean }) {
  const target = useRef<T>(null);
  const done = useRef(false);
  useEffect(() => {
    // Once, also where StrictMode runs the effect twice.
    if (done.current) return;
    done.current = true;
    if (handover.stopKeeping) {
      // The first focus the popover moves past its trigger: a field of the popover (role dialog)
      // gets what was typed, nothing else does.
      const onFocus = (event: FocusEvent) => {
        if (event.target === target.current) return;
        document.removeEventListener('focusin', onFocus);
        handover.stopKeeping?.();
        const field = event.target;
        const inPopover = field instanceof HTMLElement && field.closest('[role="dialog"]') !== null;
        if ((field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement) && inPopover && handover.typed) typeInto(field, handover.typed);
        handover.typed = '';
      };
      document.addEventListener('focusin', onFocus);
    }
    if (handover.focused) target.current?.focus();
    if (click) target.current?.click();
  }, [handover, click]);
  return target;
}
