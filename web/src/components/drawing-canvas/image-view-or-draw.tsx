import { Box, Group, SegmentedControl, Stack } from '@mantine/core';
import type { TranscriptionLayout } from '@pim/contract';
import { IconEye, IconPencil } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from '../../i18n/use-translation';
import { LayoutViewer } from '../layout-overlay/layout-viewer';
import type { MarkedLine } from '../layout-overlay/marked-line';
import { DrawingCanvas, type DrawingImage } from './drawing-canvas';
import { IconLabel } from './drawing-toolbar';

type Mode = 'view' | 'draw';

interface ImageViewOrDrawProps {
  image: DrawingImage;
  /** An imported layout drawn over the image in the viewer, and under the drawing in the tool. */
  layout?: TranscriptionLayout | null;
  /** Controls for both, beside the view/draw switch. */
  controls?: ReactNode;
  /** A line the viewer marks and brings into view (a search hit's). */
  marked?: MarkedLine | null;
}

/**
 * The image tab of an image's page: the zoomable viewer, or the drawing tool. The choice is in
 * the address (`view=draw`), so a reload stays on it; each, once opened, stays mounted while the
 * other is shown, so unsaved shapes are not lost by a look at the viewer.
 */
export function ImageViewOrDraw({ image, layout = null, controls, marked = null }: ImageViewOrDrawProps) {
  const { t } = useTranslation('drawings');
  const [params, setParams] = useSearchParams();
  const mode: Mode = params.get('view') === 'draw' ? 'draw' : 'view';
  const [opened, setOpened] = useState({ view: mode === 'view', draw: mode === 'draw' });

  const choose = (next: Mode) => {
    setOpened((o) => ({ ...o, [next]: true }));
    setParams(
      (p) => {
        if (next === 'draw') p.set('view', 'draw');
        else p.delete('view');
        return p;
      },
      { replace: true },
    );
  };

  return (
    <Stack gap="sm">
      <Group gap="lg" wrap="wrap">
        <SegmentedControl
          aria-label={t('viewOrDraw')}
          value={mode}
          onChange={(value) => choose(value as Mode)}
          data={[
            { value: 'view', label: <IconLabel icon={IconEye} text={t('view')} /> },
            { value: 'draw', label: <IconLabel icon={IconPencil} text={t('draw')} /> },
          ]}
        />
        {controls}
      </Group>
      {opened.view && (
        <Box display={mode === 'view' ? 'block' : 'none'}>
          {/* The image's own Image API service, as the server names it. */}
          <LayoutViewer infoUrl={`${image.uri.replace(/\/$/, '')}/info.json`} image={image} layout={layout} height="70vh" marked={marked} />
        </Box>
      )}
      {opened.draw && (
        <Box display={mode === 'draw' ? 'block' : 'none'}>
          <DrawingCanvas image={image} layout={layout} />
        </Box>
      )}
    </Stack>
  );
}
