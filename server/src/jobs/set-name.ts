import { IMAGE_SET_NAME_MAX } from '@pim/contract';

/**
 * A text as the name of a set a job makes: on one line, within the longest name a set may have
 * (the limit counts UTF-16 code units; a character outside the BMP is two and is not cut in half).
 */
export function fitSetName(text: string): string {
  const cut = text.replace(/\s+/g, ' ').trim().slice(0, IMAGE_SET_NAME_MAX);
  return (/[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut).trim();
}
