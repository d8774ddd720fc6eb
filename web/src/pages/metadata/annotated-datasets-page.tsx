/** Being built in this change. */
export function AnnotatedDatasetsPage() {
  return null;
}
