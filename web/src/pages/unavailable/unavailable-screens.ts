/**
 * Screens of the spec's route table (part 2 §2) that this version does not build yet. Each key is
 * the path under /pim/ and also names the screen's title in the pages namespace (`screens.*`).
 */
export const UNAVAILABLE_SCREENS = ['dashboard'] as const;
