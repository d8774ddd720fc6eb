import { Anchor, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { MANUSCRIPT_FONT_FAMILY } from '../../components/manuscript-text/manuscript-text';
import { useTranslation } from '../../i18n/use-translation';

const CLAMP_LINES = 3;

/** A long text cut to three lines, with 'read more' and 'show less'; a transcription's in the manuscript face. */
export function ReadMore({ text, manuscript = false }: { text: string | null; manuscript?: boolean }) {
  const { t } = useTranslation('imagesets');
  const [expanded, setExpanded] = useState(false);
  if (!text) return null;
  // Short texts need no toggle; line breaks count as lines too.
  const long = text.length > 160 || text.split('\n').length > CLAMP_LINES;
  return (
    <Stack gap={2} maw={360}>
      <Text size="sm" lineClamp={expanded ? undefined : CLAMP_LINES} style={{ whiteSpace: 'pre-wrap', ...(manuscript && { fontFamily: MANUSCRIPT_FONT_FAMILY }) }}>
        {text}
      </Text>
      {long && (
        <Anchor component="button" type="button" size="xs" onClick={() => setExpanded(!expanded)}>
          {expanded ? t('images.showLess') : t('images.readMore')}
        </Anchor>
      )}
    </Stack>
  );
}
