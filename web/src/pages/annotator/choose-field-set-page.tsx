import { Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { namedRefSchema, type NamedRef } from '@pim/contract';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { Typeahead } from '../../components/typeahead/typeahead';
import { useTranslation } from '../../i18n/use-translation';
import { RequireSignIn } from '../../session/require-sign-in';
import { annotatorPath, annotatorScreenOf, type AnnotatorScreen } from './paths';

function ChooseFieldSet({ uri, screen }: { uri: string; screen: AnnotatorScreen }) {
  const { t } = useTranslation('annotator');
  const navigate = useNavigate();
  const [fieldSet, setFieldSet] = useState<NamedRef | null>(null);
  const annotate = () => {
    if (!fieldSet) return;
    void navigate(annotatorPath({ uri, fieldsetid: fieldSet.uuid, screen }));
  };

  return (
    <Stack gap="md" maw={640}>
      <Text>{t('choose.intro')}</Text>
      <Stack gap={2}>
        <Text size="sm" fw={500}>
          {t('choose.manifest')}
        </Text>
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }} data-testid="manifest-uri">
          {uri}
        </Text>
      </Stack>
      <Typeahead
        label={t('choose.fieldSet')}
        placeholder={t('choose.placeholder')}
        url="pim/pimfieldset/autocomplete"
        itemSchema={namedRefSchema}
        getKey={(item) => item.uuid}
        getLabel={(item) => item.name}
        value={fieldSet}
        onChange={setFieldSet}
      />
      <Group justify="space-between">
        <Button onClick={annotate} disabled={!fieldSet}>
          {t('choose.continue')}
        </Button>
        <Text size="sm">
          {t('choose.noneYet')}{' '}
          <Anchor component={Link} to="/pimfieldsetedit" style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}>
            <IconPlus size={14} aria-hidden />
            {t('choose.create')}
          </Anchor>
        </Text>
      </Group>
    </Stack>
  );
}

/**
 * `/pim/analyzeimagemanualfieldset?uri=[&screen=]`: which field set to annotate the manifest with,
 * then on to the annotator `screen` names. Without uri: back to the image sets.
 */
export function ChooseFieldSetPage() {
  const { t } = useTranslation('annotator');
  const [searchParams] = useSearchParams();
  const uri = searchParams.get('uri');
  if (!uri) return <Navigate to="/imagesets" replace />;
  return (
    <Stack gap="md">
      <Title order={2}>{t('choose.title')}</Title>
      <RequireSignIn>
        <ChooseFieldSet uri={uri} screen={annotatorScreenOf(searchParams)} />
      </RequireSignIn>
    </Stack>
  );
}
