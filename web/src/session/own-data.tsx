import { PAGE_COOKIE } from '@pim/contract';
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';

import { writePageCookie } from './page-cookies';

const OWN_DATA_KEY = 'onlyOwnData';

/** On the server, the preference a page is rendered with (web/src/server-render.tsx); undefined in the browser. */
let renderValue: boolean | undefined;

export function setRenderOwnDataOnly(value: boolean | undefined): void {
  renderValue = value;
}

type OwnDataValue = readonly [onlyOwnData: boolean, setOnlyOwnData: (value: boolean) => void];

const OwnDataContext = createContext<OwnDataValue>([false, () => undefined]);

/** The stored preference, as the provider starts with it (e.g. for fetching a list before it renders). */
export function readOwnDataOnly(): boolean {
  if (renderValue !== undefined) return renderValue;
  try {
    return localStorage.getItem(OWN_DATA_KEY) === 'true';
  } catch {
    return false;
  }
}

/**
 * The global 'Own data only' preference. Lists and pickers put it in their query keys, so
 * changing it reloads them.
 */
export function OwnDataProvider({ children }: { children: ReactNode }) {
  const [onlyOwnData, setState] = useState(readOwnDataOnly);
  const setOnlyOwnData = useCallback((value: boolean) => {
    localStorage.setItem(OWN_DATA_KEY, String(value));
    writePageCookie(PAGE_COOKIE.ownDataOnly, value ? 'true' : null);
    setState(value);
  }, []);
  const value = useMemo(() => [onlyOwnData, setOnlyOwnData] as const, [onlyOwnData, setOnlyOwnData]);
  return <OwnDataContext.Provider value={value}>{children}</OwnDataContext.Provider>;
}

export function useOwnDataOnly(): OwnDataValue {
  return useContext(OwnDataContext);
}
