import { useSyncExternalStore } from 'react';
import { DEFAULT_NAMESPACE, i18n, type TFunction, type Translations } from './translations';

/**
 * `t` for the first of the namespaces (`ns:key` reads another) in the current language, and the
 * translations themselves (`i18n.language`); the component renders again when the language
 * changes. It suspends until the namespaces have come: a screen's route asks for them beside its
 * code, so this waits only for a namespace nobody asked for before.
 */
export function useTranslation(ns: string | readonly string[] = DEFAULT_NAMESPACE): { t: TFunction; i18n: Translations } {
  const namespaces = typeof ns === 'string' ? [ns] : ns;
  useSyncExternalStore(i18n.subscribe, i18n.getLanguage, i18n.getLanguage);
  // Thrown, the promise is how a component suspends for what React does not fetch itself.
  if (!i18n.hasLoaded(namespaces)) throw i18n.loadNamespaces(namespaces);
  return { t: i18n.fixedT(namespaces[0] ?? DEFAULT_NAMESPACE), i18n };
}
