import { cloneElement, type ReactElement, type ReactNode } from 'react';
import type { TFunction, TOptions } from './translations';

type TransProps = {
  t: TFunction;
  i18nKey: string;
  values?: TOptions;
  /** The elements the text's tags stand for: `<jobs>Jobs</jobs>` is components.jobs with 'Jobs' inside. */
  components: Record<string, ReactElement>;
};

/** A text with elements (links) inside it, where the translation puts them. */
export function Trans({ t, i18nKey, values, components }: TransProps) {
  return <>{withComponents(t(i18nKey, values), components)}</>;
}

function withComponents(text: string, components: Record<string, ReactElement>): ReactNode[] {
  const nodes: ReactNode[] = [];
  let rest = 0;
  for (const { 0: tag, 1: name = '', 2: inside = '', index } of text.matchAll(/<(\w+)>(.*?)<\/\1>/gs)) {
    const component = components[name];
    // A tag no element is given for stays text, as it is.
    if (!component) continue;
    if (index > rest) nodes.push(text.slice(rest, index));
    nodes.push(cloneElement(component, { key: nodes.length }, ...withComponents(inside, components)));
    rest = index + tag.length;
  }
  if (rest < text.length) nodes.push(text.slice(rest));
  return nodes;
}
