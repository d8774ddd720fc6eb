const UNITS = ['B', 'kB', 'MB', 'GB', 'TB'] as const;

/** A size as people read it, in powers of 1000 (models, stored files, disks). */
export function formatBytes(bytes: number, language: string): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  const digits = unit === 0 ? 0 : 1;
  return `${new Intl.NumberFormat(language, { maximumFractionDigits: digits }).format(value)} ${UNITS[unit]}`;
}
