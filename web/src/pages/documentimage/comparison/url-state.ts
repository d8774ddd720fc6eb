import { NORMALISATIONS, type Normalisation } from '@pim/contract';
import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

/**
 * The image page's state that is worth a reload or a shared link lives in its address: the open
 * tab, the transcriptions marked for comparison and how they are compared, and whose layout is
 * drawn over the image. The tab list, the transcription tabs, the comparison and the image tab are
 * separate components; the address is what they share.
 */
const PARAM = {
  tab: 'tab',
  layout: 'layout',
  hideLayout: 'hidelayout',
  diff1: 'diff1',
  diff2: 'diff2',
  groundTruth: 'groundtruth',
  normalisation: 'normalisation',
  level: 'level',
  line: 'line',
} as const;

export const COMPARISON_TAB = 'comparison';

export function transcriptionTab(uuid: string): string {
  return `transcription-${uuid}`;
}

type Edit = (params: URLSearchParams) => void;

/** Changes some parameters and keeps the others; no history entry, as the drawing mode does. */
function useEditParams(): [URLSearchParams, (edit: Edit) => void] {
  const [params, setParams] = useSearchParams();
  const editParams = useCallback(
    (edit: Edit) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          edit(next);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  return [params, editParams];
}

function setOrDelete(params: URLSearchParams, name: string, value: string | null) {
  if (value) params.set(name, value);
  else params.delete(name);
}

/** The open tab of the image page, `defaultTab` when the address names none. */
export function useDocumentImageTab(defaultTab: string): [string, (tab: string | null) => void] {
  const [params, editParams] = useEditParams();
  const setTab = useCallback(
    (tab: string | null) => editParams((p) => setOrDelete(p, PARAM.tab, tab === defaultTab ? null : tab)),
    [editParams, defaultTab],
  );
  return [params.get(PARAM.tab) ?? defaultTab, setTab];
}

export type DiffSlot = 'diff1' | 'diff2';
export type DiffLevel = 'characters' | 'words';

/**
 * What is compared: two transcriptions (diff 1 the reference, diff 2 the hypothesis), or one
 * transcription's corrected lines with their ground truth. Choosing one kind clears the other.
 */
export interface ComparisonState {
  diff1: string | null;
  diff2: string | null;
  groundTruth: string | null;
  normalisation: Normalisation;
  level: DiffLevel;
}

export interface ComparisonActions {
  /** Marks the transcription for the slot, or unmarks it when it already holds it. */
  toggle: (slot: DiffSlot, uuid: string) => void;
  compareWithGroundTruth: (uuid: string) => void;
  clear: () => void;
  setNormalisation: (choice: Normalisation) => void;
  setLevel: (level: DiffLevel) => void;
  showComparison: () => void;
}

function isNormalisation(value: string | null): value is Normalisation {
  return NORMALISATIONS.some((n) => n.id === value);
}

export function useComparison(): [ComparisonState, ComparisonActions] {
  const [params, editParams] = useEditParams();
  const normalisation = params.get(PARAM.normalisation);
  const state: ComparisonState = {
    diff1: params.get(PARAM.diff1),
    diff2: params.get(PARAM.diff2),
    groundTruth: params.get(PARAM.groundTruth),
    normalisation: isNormalisation(normalisation) ? normalisation : 'exact',
    level: params.get(PARAM.level) === 'words' ? 'words' : 'characters',
  };
  const actions: ComparisonActions = {
    toggle: (slot, uuid) =>
      editParams((p) => {
        const other = slot === 'diff1' ? PARAM.diff2 : PARAM.diff1;
        const marked = p.get(PARAM[slot]) === uuid;
        setOrDelete(p, PARAM[slot], marked ? null : uuid);
        // One transcription compared with itself says nothing: it moves to the new slot.
        if (!marked && p.get(other) === uuid) p.delete(other);
        p.delete(PARAM.groundTruth);
      }),
    compareWithGroundTruth: (uuid) =>
      editParams((p) => {
        p.delete(PARAM.diff1);
        p.delete(PARAM.diff2);
        p.set(PARAM.groundTruth, uuid);
        p.set(PARAM.tab, COMPARISON_TAB);
      }),
    clear: () =>
      editParams((p) => {
        p.delete(PARAM.diff1);
        p.delete(PARAM.diff2);
        p.delete(PARAM.groundTruth);
      }),
    setNormalisation: (choice) => editParams((p) => setOrDelete(p, PARAM.normalisation, choice === 'exact' ? null : choice)),
    setLevel: (level) => editParams((p) => setOrDelete(p, PARAM.level, level === 'characters' ? null : level)),
    showComparison: () => editParams((p) => p.set(PARAM.tab, COMPARISON_TAB)),
  };
  return [state, actions];
}

/** Whose layout the image tab draws (null: the newest transcription's), and whether it draws one. */
export interface LayoutChoice {
  transcription: string | null;
  shown: boolean;
}

export interface LayoutChoiceActions {
  choose: (uuid: string) => void;
  setShown: (shown: boolean) => void;
  /** Opens the image tab with this transcription's layout drawn over the image. */
  showOnImage: (uuid: string) => void;
}

export function useLayoutChoice(): [LayoutChoice, LayoutChoiceActions] {
  const [params, editParams] = useEditParams();
  const choice = { transcription: params.get(PARAM.layout), shown: params.get(PARAM.hideLayout) === null };
  const actions: LayoutChoiceActions = {
    choose: (uuid) => editParams((p) => p.set(PARAM.layout, uuid)),
    setShown: (shown) => editParams((p) => setOrDelete(p, PARAM.hideLayout, shown ? null : '1')),
    showOnImage: (uuid) =>
      editParams((p) => {
        // The image tab is the page's default: no tab in the address.
        p.delete(PARAM.tab);
        p.set(PARAM.layout, uuid);
        p.delete(PARAM.hideLayout);
      }),
  };
  return [choice, actions];
}

/** The text line to mark on the image (`line=`, a search hit's), or null. */
export function useMarkedLineId(): string | null {
  const [params] = useSearchParams();
  return params.get(PARAM.line) || null;
}
