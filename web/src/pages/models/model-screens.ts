import type { ModelKind } from '@pim/contract';

/** Where a kind's screens live under /pim/ and which of them it has (spec part 2 §2 "Model screens"). */
export interface ModelScreens {
  kind: ModelKind;
  listRoute: string;
  /** The create form's route; null: models of this kind arrive only through the API. */
  formRoute: string | null;
  /** Loghi HTR and Laypa: the form route with ?uuid= is the model's detail page, and rows open it. */
  hasDetail: boolean;
  /** Laypa: the server pages the list. */
  paged: boolean;
}

export const MODEL_SCREENS: Record<ModelKind, ModelScreens> = {
  kraken: { kind: 'kraken', listRoute: 'krakenmodels', formRoute: 'krakenmodel', hasDetail: false, paged: false },
  tesseract4: { kind: 'tesseract4', listRoute: 'tesseract4models', formRoute: 'tesseract4model', hasDetail: false, paged: false },
  loghihtr: { kind: 'loghihtr', listRoute: 'loghihtrmodels', formRoute: 'loghihtrmodel', hasDetail: true, paged: false },
  loghilinedetection: { kind: 'loghilinedetection', listRoute: 'loghilinedetectionmodels', formRoute: null, hasDetail: false, paged: false },
  p2pala: { kind: 'p2pala', listRoute: 'p2palamodels', formRoute: 'p2palamodel', hasDetail: false, paged: false },
  pylaia: { kind: 'pylaia', listRoute: 'pylaiamodels', formRoute: 'pylaiamodel', hasDetail: false, paged: false },
  siamesenetwork: { kind: 'siamesenetwork', listRoute: 'siamesenetworkmodels', formRoute: 'siamesenetworkmodel', hasDetail: false, paged: false },
  laypa: { kind: 'laypa', listRoute: 'laypamodels', formRoute: 'laypamodel', hasDetail: true, paged: true },
};

export const listPath = (kind: ModelKind) => `/${MODEL_SCREENS[kind].listRoute}`;

export function detailPath(kind: ModelKind, uuid: string): string {
  return `/${MODEL_SCREENS[kind].formRoute}?uuid=${encodeURIComponent(uuid)}`;
}
