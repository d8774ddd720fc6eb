import { Stack, Title } from '@mantine/core';
import { Fragment, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { BackLink } from '../components/back-link';
import { RequireSignIn } from '../session/require-sign-in';

interface EditPageProps {
  /** The address parameter that names the record; without it the screen makes a new one. */
  param?: string;
  back: { to: string; label: string };
  newTitle: string;
  updateTitle: string;
  /** The screen of a saved record, which loads it. */
  saved: (id: string) => ReactNode;
  /** The empty form of a new record. */
  fresh: ReactNode;
  /** A role the whole screen needs (e.g. ADMIN), or only its new-record form (`createRole`). */
  role?: string;
  createRole?: string;
  /** The title above 'This needs the … role.' for a caller without it. */
  refusedTitle?: string;
}

/**
 * A form screen for a new record or a saved one (`/pim/<screen>[?uuid]`): the link back to the list,
 * 'New …' or 'Update …', and the form once the user is signed in.
 */
export function EditPage({ param = 'uuid', back, newTitle, updateTitle, saved, fresh, role, createRole, refusedTitle }: EditPageProps) {
  const [searchParams] = useSearchParams();
  const id = searchParams.get(param);
  return (
    <Stack gap="md">
      <Stack gap={4}>
        <BackLink to={back.to}>{back.label}</BackLink>
        <Title order={2}>{id ? updateTitle : newTitle}</Title>
      </Stack>
      <RequireSignIn role={id ? role : (createRole ?? role)} refusedTitle={refusedTitle}>
        {/* Keyed by record: another id in the address, or a create that puts one there, starts a fresh form. */}
        <Fragment key={id ?? ''}>{id ? saved(id) : fresh}</Fragment>
      </RequireSignIn>
    </Stack>
  );
}
