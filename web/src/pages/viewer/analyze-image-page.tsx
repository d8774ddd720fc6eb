import { Alert, Box } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { iiifInfoUrl } from '../../api/documentimages';
import { ImageViewer } from '../../components/image-viewer/image-viewer';
import { Spinner } from '../../components/spinner';
import { useTranslation } from '../../i18n/use-translation';
import { useAuthHeaders } from '../../session/auth-headers';
import { ChooseImage } from './choose-image';
import { readManifest, type ManifestOutcome } from './manifest';

const VIEWER_HEIGHT = 'calc(100vh - 120px)';

/** Our token goes only to our own server. */
function sameOrigin(url: string): boolean {
  return new URL(url, window.location.href).origin === window.location.origin;
}

async function fetchManifest(uri: string, headers: Record<string, string>, signal: AbortSignal): Promise<ManifestOutcome> {
  const response = await fetch(uri, { headers: { Accept: 'application/json', ...headers }, signal });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(text || `HTTP ${response.status}`);
  }
  // Our own error answers are {error, message}; other servers reply {code, message}.
  return readManifest(json);
}

function ManifestViewer({ uri }: { uri: string }) {
  const { t } = useTranslation('imagesets');
  const auth = useAuthHeaders();
  const headers = sameOrigin(uri) ? auth : {};
  const manifest = useQuery({
    queryKey: ['iiif-manifest', uri, headers],
    queryFn: ({ signal }) => fetchManifest(uri, headers, signal),
    retry: false,
  });
  if (manifest.isPending) return <Spinner />;
  if (manifest.isError) return <Alert color="red">{t('viewer.loadFailed', { message: manifest.error.message })}</Alert>;
  const outcome = manifest.data;
  switch (outcome.kind) {
    case 'image':
      return <ImageViewer infoUrl={outcome.infoUrl} height={VIEWER_HEIGHT} />;
    case 'noCanvases':
      return <Alert color="red">{t('viewer.noCanvases')}</Alert>;
    case 'serverError':
      return <Alert color="red">{t('viewer.serverError', { message: outcome.message })}</Alert>;
    default:
      return <Alert color="red">{t('viewer.noImage')}</Alert>;
  }
}

/**
 * The viewer alone on the page: an image by id, or the first image of a manifest (or an info.json)
 * by uri; without either, a way to choose one.
 */
export function AnalyzeImagePage() {
  const [searchParams] = useSearchParams();
  const id = searchParams.get('id');
  const uri = searchParams.get('uri');
  let content;
  if (id) content = <ImageViewer infoUrl={iiifInfoUrl(id)} height={VIEWER_HEIGHT} />;
  else if (uri && /\/info\.json$/.test(new URL(uri, window.location.href).pathname)) content = <ImageViewer infoUrl={uri} height={VIEWER_HEIGHT} />;
  else if (uri) content = <ManifestViewer uri={uri} />;
  else return <ChooseImage />;
  return <Box w="100%">{content}</Box>;
}
