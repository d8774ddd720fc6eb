import { Alert, Anchor, Stack, Title } from '@mantine/core';
import { Link, useSearchParams } from 'react-router';
import { ApiError } from '../../api/client';
import { useImageSet } from '../../api/imagesets';
import { useMetadataFields } from '../../api/metadata';
import { Spinner } from '../../components/spinner';
import { useTranslation } from '../../i18n/use-translation';
import { RequireSignIn } from '../../session/require-sign-in';
import { AnnotatorWorkspace } from './annotator-workspace';
import { chooseFieldSetPath, type AnnotatorScreen } from './paths';
import { manifestProblemText, useManifest } from './use-manifest';

/** Every failure is said on the screen, never a blank page. */
function Problem({ text }: { text: string }) {
  return <Alert color="red">{text}</Alert>;
}

/**
 * The field set's fields and the manifest, loaded side by side; then the workspace on the image
 * of `imageUri` (the first when the address names none, or one not in the manifest). Moving to
 * another image replaces imageUri in the address, so a reload stays on that image.
 */
function AnnotatorForManifest({ fieldSetId, manifestUri, screen }: { fieldSetId: string; manifestUri: string; screen: AnnotatorScreen }) {
  const { t } = useTranslation('annotator');
  const [searchParams, setSearchParams] = useSearchParams();
  const fields = useMetadataFields(fieldSetId);
  const manifest = useManifest(manifestUri);

  if (fields.isError) {
    const missing = fields.error instanceof ApiError && (fields.error.status === 404 || fields.error.status === 400);
    return <Problem text={missing ? t('errors.noFieldSet') : t('errors.fieldsFailed', { message: fields.error.message })} />;
  }
  if (manifest.isError) return <Problem text={t('errors.loadFailed', { message: manifest.error.message })} />;
  if (fields.isPending || manifest.isPending) return <Spinner />;
  const reading = manifest.data;
  if (!reading.ok) return <Problem text={manifestProblemText(t, reading.problem)} />;

  const requested = searchParams.get('imageUri');
  const { canvases } = reading.manifest;
  const found = requested === null ? -1 : canvases.findIndex((canvas) => canvas.imageServiceId === requested);
  const onMove = (imageUri: string) =>
    setSearchParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        next.set('imageUri', imageUri);
        return next;
      },
      { replace: true },
    );

  return (
    <Stack gap="sm">
      {requested !== null && found < 0 && <Alert color="yellow">{t('errors.unknownImage', { imageUri: requested })}</Alert>}
      <AnnotatorWorkspace
        screen={screen}
        fields={fields.data}
        fieldSetId={fieldSetId}
        manifestUri={manifestUri}
        manifest={reading.manifest}
        index={Math.max(found, 0)}
        onMove={onMove}
      />
    </Stack>
  );
}

/** `id` names an image set of ours: its manifest is the set's remoteUri. */
function ImageSetAnnotator({ imageSetId, fieldSetId, screen }: { imageSetId: string; fieldSetId: string; screen: AnnotatorScreen }) {
  const { t } = useTranslation('annotator');
  const imageSet = useImageSet(imageSetId);
  if (imageSet.isPending) return <Spinner />;
  if (imageSet.isError) return <Problem text={t('errors.imageSetFailed', { message: imageSet.error.message })} />;
  return <AnnotatorForManifest fieldSetId={fieldSetId} manifestUri={imageSet.data.remoteUri} screen={screen} />;
}

function AnnotatorParams({ screen }: { screen: AnnotatorScreen }) {
  const { t } = useTranslation('annotator');
  const [searchParams] = useSearchParams();
  const fieldSetId = searchParams.get('fieldsetid');
  const uri = searchParams.get('uri');
  const imageSetId = searchParams.get('id');
  if (!fieldSetId) {
    return (
      <Stack gap="xs" align="flex-start">
        <Problem text={t('errors.noFieldSetId')} />
        {uri && (
          <Anchor component={Link} to={chooseFieldSetPath(uri, screen)} size="sm">
            {t('errors.chooseFieldSet')}
          </Anchor>
        )}
      </Stack>
    );
  }
  if (uri) return <AnnotatorForManifest key={`${uri} ${fieldSetId}`} fieldSetId={fieldSetId} manifestUri={uri} screen={screen} />;
  if (imageSetId) return <ImageSetAnnotator key={`${imageSetId} ${fieldSetId}`} imageSetId={imageSetId} fieldSetId={fieldSetId} screen={screen} />;
  return <Problem text={t('errors.noManifest')} />;
}

/**
 * `/pim/analyzeimagemanual?uri|id&fieldsetid[&imageUri]`: describe the images of a manifest with
 * a field set. `screen` names the newer screen of the same annotator, with its Transcription tab live.
 */
export function AnnotatorPage({ screen = 'analyzeimagemanual' }: { screen?: AnnotatorScreen }) {
  // The newer screen is titled as the route table names it.
  const { t } = useTranslation(['annotator', 'pages']);
  return (
    <Stack gap="md">
      <Title order={2}>{screen === 'analyzeimagemanual' ? t('title') : t('pages:screens.analyzeimagemanualnew')}</Title>
      <RequireSignIn>
        <AnnotatorParams screen={screen} />
      </RequireSignIn>
    </Stack>
  );
}

/** `/pim/analyzeimagemanualnew`, the same parameters: the annotator with the recognised text beside the image. */
export function NewAnnotatorPage() {
  return <AnnotatorPage screen="analyzeimagemanualnew" />;
}
