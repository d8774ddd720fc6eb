/** Being built in this change. */
export function FieldSetsPage() {
  return null;
}
