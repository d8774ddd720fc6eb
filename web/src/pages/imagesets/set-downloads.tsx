import { Anchor } from '@mantine/core';
import type { DocumentImageSet } from '@pim/contract';
import type { KeyboardEvent, MouseEvent } from 'react';
import { useDownload } from '../../api/download';
import { useTranslation } from '../../i18n/use-translation';

/** The set downloads (spec part 1 §5): the path below the API base and the name the file is saved as. */
export function setDownloads(uuid: string) {
  const base = `pim/imageset/${encodeURIComponent(uuid)}`;
  return {
    json: { path: `${base}/get`, fileName: `${uuid}_json.zip` },
    page: { path: `${base}/page`, fileName: `${uuid}_page.zip` },
    images: { path: `${base}/zippedimages`, fileName: `${uuid}_images.zip` },
    pdf: { path: `${base}/pdf`, fileName: `${uuid}.pdf` },
  };
}

/** Keeps a click or Enter on a download control from also opening the row's set. */
export function stopRowClick(event: MouseEvent | KeyboardEvent): void {
  event.stopPropagation();
}

/** The set's PDF, fetched with the sign-in like the zips. */
export function PdfLink({ set }: { set: DocumentImageSet }) {
  const { t } = useTranslation('imagesets');
  const { download, busy } = useDownload();
  const target = setDownloads(set.uuid).pdf;
  const onClick = (event: MouseEvent) => {
    event.preventDefault();
    if (busy === null) void download(target);
  };
  return (
    <Anchor component="button" type="button" size="sm" onClick={onClick} aria-busy={busy !== null}>
      {t('download.pdf')}
    </Anchor>
  );
}
