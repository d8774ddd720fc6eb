/** Being built in this change. */
export function MetadataOverviewPage() {
  return null;
}
