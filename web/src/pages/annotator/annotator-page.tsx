/** Being built in this change. */
export function AnnotatorPage() {
  return null;
}
