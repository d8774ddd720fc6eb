import { Anchor, Badge, Box, Button, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import type { SiameseSnippetResult } from '@pim/contract';
import { useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from '../../i18n/use-translation';
import { AuthenticatedImage } from '../authenticated-image/authenticated-image';
import { MANUSCRIPT_FONT_FAMILY } from '../manuscript-text/manuscript-text';
import { snippetLink, useScoreFormat } from './snippet-format';

/** A line's crop is wide and low: the box it is fitted into. */
const SNIPPET_BOX = { width: 240, height: 72 };

/** Wording a caller gives instead of the list's own ('Snippet of …', 'No image'). */
export interface SnippetWording {
  /** The crop's alt text, from its image's label. */
  imageAlt?: (label: string) => string;
  /** Said in place of a crop that could not be fetched. */
  noImage?: string;
}

/** A long list shown in steps: `step` results at first and `step` more with each press of the button `label` names. */
export interface ShowMore {
  step: number;
  label: (shown: number, total: number) => string;
}

interface CardOptions {
  /**
   * Given, each snippet's crop is a button that chooses it (its image's label still links to the
   * image page); without, the crop links to the image page too.
   */
  onSelect?: (snippet: SiameseSnippetResult) => void;
  /** False for plain lists, whose distance is 0: no distance and cosine shown. */
  withScores?: boolean;
  wording?: SnippetWording;
}

export interface SnippetResultsProps extends CardOptions {
  results: SiameseSnippetResult[];
  /** The list's accessible name, e.g. 'Nearest snippets'. */
  label: string;
  /** The uuid of the chosen snippet, drawn as chosen. */
  selected?: string | null;
  /** Instead of an empty list; 'No similar snippets found.' unless given. */
  emptyText?: string;
  /** Without, every result is shown (each fetches its crop once it is near the screen). */
  showMore?: ShowMore;
}

/** A line's text in the manuscript font, or nothing when the line has none. */
export function LineText({ text }: { text: string | null }) {
  if (!text) return null;
  return (
    <Text size="sm" lineClamp={2} style={{ fontFamily: MANUSCRIPT_FONT_FAMILY, overflowWrap: 'anywhere' }}>
      {text}
    </Text>
  );
}

/** Distance, cosine and tag of a result, as small labelled values. */
export function SnippetScores({ snippet, withScores = true }: { snippet: SiameseSnippetResult; withScores?: boolean }) {
  const { t } = useTranslation('similarity');
  const score = useScoreFormat();
  return (
    <Group gap={6} wrap="wrap">
      {withScores && (
        <Text size="sm" ff="monospace">
          {t('results.distance', { value: score(snippet.distance) })}
        </Text>
      )}
      {withScores && snippet.cosineFromTarget !== null && (
        <Text size="sm" ff="monospace" c="dimmed">
          {t('results.cosine', { value: score(snippet.cosineFromTarget) })}
        </Text>
      )}
      {snippet.tag !== null && snippet.tag !== '' && (
        <Badge variant="light" tt="none" title={t('results.tag')}>
          {snippet.tag}
        </Badge>
      )}
    </Group>
  );
}

/** The crop: a button choosing the snippet, or a link to its image page. */
function SnippetCrop({ snippet, onSelect, selected, wording }: { snippet: SiameseSnippetResult; selected: boolean } & Pick<CardOptions, 'onSelect' | 'wording'>) {
  const { t } = useTranslation('similarity');
  const label = snippet.documentImageLabel;
  const image = (
    <AuthenticatedImage
      path={snippet.imageLocation}
      alt={wording?.imageAlt?.(label) ?? t('results.alt', { label })}
      fallback={wording?.noImage ?? t('results.noImage')}
      width={SNIPPET_BOX.width}
      height={SNIPPET_BOX.height}
      shrink
    />
  );
  const frame = { display: 'block', borderRadius: 'var(--mantine-radius-sm)', outline: selected ? '3px solid var(--mantine-color-blue-filled)' : undefined };
  if (onSelect) {
    return (
      <UnstyledButton onClick={() => onSelect(snippet)} aria-pressed={selected} aria-label={t('results.choose', { label })} style={frame}>
        {image}
      </UnstyledButton>
    );
  }
  return (
    <Anchor component={Link} to={snippetLink(snippet)} aria-label={t('results.open', { label })} style={frame}>
      {image}
    </Anchor>
  );
}

/** One result: its crop, its image's label linking to the image page with the line marked, scores and text. */
export function SnippetCard({ snippet, onSelect, selected = false, withScores = true, wording }: { snippet: SiameseSnippetResult; selected?: boolean } & CardOptions) {
  return (
    <Stack gap={4} maw={SNIPPET_BOX.width} style={{ minWidth: 0 }}>
      <SnippetCrop snippet={snippet} onSelect={onSelect} selected={selected} wording={wording} />
      <Anchor component={Link} to={snippetLink(snippet)} size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
        {snippet.documentImageLabel}
      </Anchor>
      <SnippetScores snippet={snippet} withScores={withScores} />
      <LineText text={snippet.lineText} />
    </Stack>
  );
}

/**
 * The results of a similarity search (or a plain list of snippets) as a grid, in the order given.
 * Shared by the similarity pages and the annotator's 'Similar handwriting' tab.
 */
export function SnippetResults({ results, label, selected = null, emptyText, showMore, ...card }: SnippetResultsProps) {
  const { t } = useTranslation('similarity');
  const [shownCount, setShownCount] = useState(showMore?.step ?? Infinity);
  if (results.length === 0) return <Text c="dimmed">{emptyText ?? t('results.empty')}</Text>;
  const shown = results.slice(0, shownCount);
  return (
    <>
      <Box
        component="ul"
        aria-label={label}
        m={0}
        p={0}
        style={{ listStyle: 'none', display: 'grid', gap: 'var(--mantine-spacing-md)', gridTemplateColumns: `repeat(auto-fill, minmax(${SNIPPET_BOX.width / 1.5}px, 1fr))` }}
      >
        {shown.map((snippet) => (
          <li key={snippet.uuid} aria-label={snippet.documentImageLabel}>
            <SnippetCard snippet={snippet} selected={snippet.uuid === selected} {...card} />
          </li>
        ))}
      </Box>
      {showMore && shown.length < results.length && (
        <Group>
          <Button variant="default" size="xs" onClick={() => setShownCount((count) => count + showMore.step)}>
            {showMore.label(shown.length, results.length)}
          </Button>
        </Group>
      )}
    </>
  );
}
