/** Being built in this change. */
export function FieldSetEditPage() {
  return null;
}
