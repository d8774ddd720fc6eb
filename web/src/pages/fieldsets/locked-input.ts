/** Inputs that cannot be changed (a fixed field's, or a read-only set's) look it: filled instead of outlined. */
export function inputVariant(locked: boolean): 'filled' | 'default' {
  return locked ? 'filled' : 'default';
}
