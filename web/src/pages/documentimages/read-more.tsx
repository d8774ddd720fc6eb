import { Anchor, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

const CLAMP_LINES = 3;

/** A long text cut to three lines, with 'read more' and 'show less'. */
export function ReadMore({ text }: { text: string | null }) {
  const { t } = useTranslation('imagesets');
  const [expanded, setExpanded] = useState(false);
  if (!text) return null;
  // Short texts need no toggle; line breaks count as lines too.
  const long = text.length > 160 || text.split('\n').length > CLAMP_LINES;
  return (
    <Stack gap={2} maw={360}>
      <Text size="sm" lineClamp={expanded ? undefined : CLAMP_LINES} style={{ whiteSpace: 'pre-wrap' }}>
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
