import type { VectorIndex } from './vector-index.js';

export interface ConfusionResult {
  labels: string[];
  /** matrix[true][predicted]. */
  matrix: number[][];
  accuracy: number;
  snippets: number;
  report: string;
}

/**
 * A model's confusion matrix on labelled snippets: each snippet is classified by the tag of its
 * nearest labelled snippet on another image (leave one image out, so a line never finds its
 * neighbour on the same page, which would flatter any descriptor), and its own tag is the truth.
 * The report is the text a person reads: per label precision, recall, F1 and support, then
 * accuracy and the macro averages, in the layout of scikit-learn's classification report.
 */
export function confusionMatrix(index: VectorIndex, tags: Map<number, string>): ConfusionResult {
  const rows = [...tags.keys()].sort((a, b) => a - b);
  const labels = [...new Set(tags.values())].sort((a, b) => a.localeCompare(b));
  const labelIndex = new Map(labels.map((l, i) => [l, i]));
  const matrix = labels.map(() => labels.map(() => 0));
  let correct = 0;
  let classified = 0;
  for (const row of rows) {
    const image = index.imageOf[row]!;
    const [nearest] = index.nearestAmong({ query: index.vector(row), algorithm: 'Euclidean', features: null }, rows, 1, (other) => index.imageOf[other] !== image);
    if (!nearest) continue;
    const truth = labelIndex.get(tags.get(row)!)!;
    const predicted = labelIndex.get(tags.get(nearest.index)!)!;
    matrix[truth]![predicted]! += 1;
    classified += 1;
    if (truth === predicted) correct += 1;
  }
  const accuracy = classified === 0 ? 0 : correct / classified;
  return { labels, matrix, accuracy, snippets: classified, report: report(labels, matrix, accuracy, classified) };
}

function report(labels: string[], matrix: number[][], accuracy: number, total: number): string {
  const width = Math.max(12, ...labels.map((l) => l.length));
  const pad = (text: string) => text.padStart(width);
  const num = (v: number) => v.toFixed(2).padStart(10);
  const lines = [`${pad('')}${'precision'.padStart(10)}${'recall'.padStart(10)}${'f1-score'.padStart(10)}${'support'.padStart(10)}`, ''];
  let precisionSum = 0;
  let recallSum = 0;
  let f1Sum = 0;
  labels.forEach((label, i) => {
    const row = matrix[i]!;
    const support = row.reduce((a, b) => a + b, 0);
    const predicted = matrix.reduce((sum, r) => sum + r[i]!, 0);
    const precision = predicted === 0 ? 0 : row[i]! / predicted;
    const recall = support === 0 ? 0 : row[i]! / support;
    const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
    precisionSum += precision;
    recallSum += recall;
    f1Sum += f1;
    lines.push(`${pad(label)}${num(precision)}${num(recall)}${num(f1)}${String(support).padStart(10)}`);
  });
  const n = labels.length || 1;
  lines.push('', `${pad('accuracy')}${''.padStart(20)}${num(accuracy)}${String(total).padStart(10)}`);
  lines.push(`${pad('macro avg')}${num(precisionSum / n)}${num(recallSum / n)}${num(f1Sum / n)}${String(total).padStart(10)}`);
  return lines.join('\n');
}
