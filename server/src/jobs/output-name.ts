/**
 * The file name of a job's download, from a record's name (an image set's): no folders, no
 * characters file systems refuse, not too long; `fallback` when nothing is left.
 */
export function outputFileName(name: string, suffix: string, fallback = 'image-set'): string {
  // eslint-disable-next-line no-control-regex
  const safe = name.replace(/[\\/:*?"<>|\u0000-\u001f\u007f]/g, '_').trim().slice(0, 200) || fallback;
  return `${safe}${suffix}`;
}
