import { Alert, Anchor, Group, Stack, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useDocumentImage } from '../../api/documentimages';
import { DrawingCanvas } from '../../components/drawing-canvas/drawing-canvas';
import { Spinner } from '../../components/spinner';
import { UuidPage } from '../../frames/uuid-page';
import { useTranslation } from '../../i18n/use-translation';

function PolygonScreen({ uuid }: { uuid: string }) {
  const { t } = useTranslation(['drawings', 'imagesets']);
  const image = useDocumentImage(uuid);
  if (image.isPending) return <Spinner />;
  if (image.isError) return <Alert color="red">{t('imagesets:image.loadFailed')}</Alert>;
  return (
    <Stack gap="md">
      <Group justify="space-between" align="baseline">
        <Title order={2}>{t('pageTitle')}: {image.data.label}</Title>
        <Anchor component={Link} to={`/documentimage?uuid=${encodeURIComponent(uuid)}`}>
          {t('backToImage')}
        </Anchor>
      </Group>
      <DrawingCanvas image={image.data} />
    </Stack>
  );
}

/** `/pim/polygon?uuid={imageUuid}`: the drawing tool on its own page. */
export function PolygonPage() {
  return <UuidPage>{(uuid) => <PolygonScreen uuid={uuid} />}</UuidPage>;
}
