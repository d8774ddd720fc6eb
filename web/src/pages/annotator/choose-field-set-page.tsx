/** Being built in this change. */
export function ChooseFieldSetPage() {
  return null;
}
