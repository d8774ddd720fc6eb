import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

const shim = (name: string) => fileURLToPath(new URL(`./src/lean-mantine/${name}`, import.meta.url));
const inMantine = (component: string) => new RegExp(`[\\\\/]@mantine[\\\\/]core[\\\\/]esm[\\\\/]components[\\\\/]${component}[\\\\/]`);

/**
 * A library module is kept whole in one chunk, so a Mantine component that takes one small thing
 * from a large module brings all of it to the first load. Two such imports, of what the first
 * screen shows, are pointed at the same thing from a small module:
 * - ScrollArea (in every data table, through Table.ScrollContainer) takes the hook useMergeRefs
 *   from @floating-ui/react, the whole floating layer (some 15 kB gzip) that only menus, popovers
 *   and tooltips need, and those load at first use;
 * - AppShell's header takes two class names from react-remove-scroll, which only dialogs need.
 */
const REDIRECTS = [
  { source: '@floating-ui/react', importer: inMantine('ScrollArea'), to: shim('merge-refs.ts') },
  { source: 'react-remove-scroll', importer: inMantine('AppShell'), to: shim('remove-scroll.ts') },
];

export function leanMantine(): Plugin {
  return {
    name: 'pim:lean-mantine',
    enforce: 'pre',
    resolveId(source, importer) {
      if (!importer) return null;
      return REDIRECTS.find((r) => r.source === source && r.importer.test(importer))?.to ?? null;
    },
  };
}
