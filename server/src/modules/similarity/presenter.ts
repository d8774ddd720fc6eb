import type { ConfusionMatrix, ConfusionMatrixSummary, DateEstimate, SiameseSnippetResult } from '@pim/contract';
import type { ConfusionMatrixRecord } from './repository.js';
import { type DateEstimateFound, type FoundSnippet, modelLabelOf } from './service.js';

/** Distances and cosines to 6 decimals: more says nothing about handwriting and only fills the page. */
const round = (value: number) => Math.round(value * 1e6) / 1e6;

export function presentSnippet({ snippet, distance, cosine }: FoundSnippet): SiameseSnippetResult {
  return {
    uuid: snippet.id,
    distance: round(distance),
    cosineFromTarget: cosine === null || Number.isNaN(cosine) ? null : round(cosine),
    tag: snippet.tag,
    documentImageId: snippet.imageId,
    documentOCRResultLineUUID: snippet.lineId,
    imageLocation: `pim/pimsimpletextline/${snippet.lineId}/image`,
    documentImageLabel: snippet.imageLabel,
    lineText: snippet.lineText,
    region: snippet.region,
    model: snippet.model,
  };
}

export function presentDateEstimate(found: DateEstimateFound): DateEstimate {
  return {
    date: found.date,
    year: found.year,
    from: found.from,
    to: found.to,
    script: found.script,
    scriptShare: found.scriptShare === null ? null : round(found.scriptShare),
    reason: found.reason,
    neighbours: found.neighbours.map((n) => ({
      documentImageId: n.imageId,
      documentImageLabel: n.imageLabel,
      distance: round(n.distance),
      weight: round(n.weight),
      date: n.date,
      script: n.script,
      snippet: presentSnippet(n.snippet),
    })),
  };
}

export function presentConfusionSummary(r: ConfusionMatrixRecord): ConfusionMatrixSummary {
  return {
    uuid: r.id,
    created: r.createdAt.toISOString(),
    model: r.model,
    modelLabel: r.modelLabel ?? modelLabelOf(r.model),
    imageSet: r.setId && r.setName !== null ? { uuid: r.setId, name: r.setName } : null,
    accuracy: round(r.accuracy),
    snippets: r.snippets,
  };
}

export function presentConfusionMatrix(r: ConfusionMatrixRecord): ConfusionMatrix {
  return { ...presentConfusionSummary(r), report: r.report, labels: r.labels, matrix: r.matrix };
}
