/** A rate such as a CER or a confidence (0.125) as a percentage with one decimal ("12.5%", "12,5%"). */
export function formatPercent(rate: number, language: string): string {
  return new Intl.NumberFormat(language, { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(rate);
}
