import { MODEL_KINDS } from '@pim/contract';
import type { QueryClient } from '@tanstack/react-query';
import { type ComponentType, lazy } from 'react';
import { matchRoutes, type RouteObject } from 'react-router';
import { prefetchImageSets } from '../api/image-set-list';
import { MODEL_SCREENS } from '../pages/models/model-screens';
import { BASENAME } from '../session/app-config';
import { getToken } from '../session/token-store';
import { loadNamespaces } from './i18n';
import { Layout } from './layout';
import { NotFoundPage } from './not-found-page';

/**
 * A screen route's `handle`: its code, which opening the screen waits for (app/app-router.tsx), and
 * the data the screen opens with, which a first load asks for beside its code.
 */
export interface ScreenHandle {
  /** Starts fetching the screen's code and translations, once; while they are on their way, the promise of their arrival (settled either way), else null. */
  load: () => Promise<void> | null;
  /** The translation namespaces the screen's texts are in, which `load` fetches in the language of the moment. */
  namespaces: readonly string[];
  prefetch?: (queryClient: QueryClient) => void;
  /** Drawn by the server into the page of its address, for a signed-in user (server-render.tsx): its render reads no browser state, and its data comes from `prefetch`. */
  serverRendered?: boolean;
}

/** The shell around the screens: the nav bar at once, each screen below it (app/layout.tsx). */
export function withShell(screens: RouteObject[]): RouteObject[] {
  return [{ element: <Layout />, children: screens }];
}

/**
 * A screen whose code is loaded when it is first opened, so each page is a chunk of its own and
 * the first load carries only the shell. Its translation namespaces are fetched beside its code,
 * so it renders with its texts at once. The import stays literal: the bundler splits on it.
 * `handle.load` starts the fetch before React renders the screen: at the first load (whose first
 * render waits for it, main.tsx), and as a navigation to it starts. The screen suspends only while
 * its code is on its way; once it is in, the screen renders at once (React.lazy alone would suspend
 * at its first render even then, and React reveals what a Suspense boundary waited for no sooner
 * than 300 ms after the boundary's fallback showed).
 */
function lazyScreen<M, P extends object>(load: () => Promise<M>, pick: (module: M) => ComponentType<P>, namespaces: readonly string[]) {
  let code: Promise<ComponentType<P>> | undefined;
  let loaded: ComponentType<P> | undefined;
  let settled = false;
  const fetchCode = () => {
    if (code) return code;
    code = Promise.all([load(), loadNamespaces(namespaces)]).then(([module]) => pick(module));
    // Settled either way: a failure is the screen's to show, where React.lazy throws it.
    code.then(
      (component) => {
        loaded = component;
        settled = true;
      },
      () => (settled = true),
    );
    return code;
  };
  const handle: ScreenHandle = {
    namespaces,
    load: () => {
      const arriving = fetchCode();
      return settled ? null : arriving.then(noop, noop);
    },
  };
  const Arriving = lazy(async () => ({ default: await fetchCode() }));
  function Screen(props: P) {
    // `loaded` is set before React.lazy's promise resolves: what `Arriving` waited for renders as `loaded`.
    const Loaded = loaded ?? Arriving;
    return <Loaded {...props} />;
  }
  return { Screen, handle };
}

const noop = () => {};

export function screen<M>(
  path: string,
  load: () => Promise<M>,
  pick: (module: M) => ComponentType,
  namespaces: readonly string[] = [],
  options: Pick<ScreenHandle, 'prefetch' | 'serverRendered'> = {},
): RouteObject {
  const { Screen, handle } = lazyScreen(load, pick, namespaces);
  return { path, element: <Screen />, handle: { ...handle, ...options } };
}

/** Each model kind's list and, where it has one, its form/detail route; `key` gives each kind its own state. */
const modelRoutes: RouteObject[] = MODEL_KINDS.flatMap((kind) => {
  const { listRoute, formRoute } = MODEL_SCREENS[kind];
  const list = lazyScreen(() => import('../pages/models/models-page'), (m) => m.ModelsPage, ['models']);
  const kindRoutes: RouteObject[] = [{ path: listRoute, element: <list.Screen key={kind} kind={kind} />, handle: list.handle }];
  if (formRoute) {
    const form = lazyScreen(() => import('../pages/models/model-page'), (m) => m.ModelPage, ['models']);
    kindRoutes.push({ path: formRoute, element: <form.Screen key={kind} kind={kind} />, handle: form.handle });
  }
  return kindRoutes;
});

/** The P2PaLA and Siamese network jobs' lists: one screen, its records by kind. */
const subJobRoutes: RouteObject[] = (['p2pala', 'siamese'] as const).map((kind) => {
  const jobs = lazyScreen(() => import('../pages/jobs/sub-jobs-page'), (m) => m.SubJobsPage, ['jobs']);
  return { path: kind === 'p2pala' ? 'p2palajobs' : 'siamesenetworkjobs', element: <jobs.Screen key={kind} kind={kind} />, handle: jobs.handle };
});

const landing = lazyScreen(() => import('../pages/landing/landing-page'), (m) => m.LandingPage, ['pages']);

export const routes: RouteObject[] = withShell([
  { index: true, element: <landing.Screen />, handle: landing.handle },
  screen('login', () => import('../pages/login/login-page'), (m) => m.LoginPage),
  screen('logingoogle', () => import('../pages/login/login-google-page'), (m) => m.LoginGooglePage),
  screen('imagesets', () => import('../pages/imagesets/image-sets-page'), (m) => m.ImageSetsPage, ['imagesets'], {
    prefetch: prefetchImageSets,
    serverRendered: true,
  }),
  screen('imageset', () => import('../pages/imageset/image-set-page'), (m) => m.ImageSetPage, ['imagesets']),
  screen('documentimage', () => import('../pages/documentimage/document-image-page'), (m) => m.DocumentImagePage, ['comparison', 'drawings', 'imagesets']),
  screen('documentimages', () => import('../pages/documentimages/document-images-page'), (m) => m.DocumentImagesPage, ['imagesets']),
  screen('analyzeimage', () => import('../pages/viewer/analyze-image-page'), (m) => m.AnalyzeImagePage, ['imagesets']),
  screen('polygon', () => import('../pages/polygon/polygon-page'), (m) => m.PolygonPage, ['drawings', 'imagesets']),
  screen('settings', () => import('../pages/settings/settings-page'), (m) => m.SettingsPage, ['pages']),
  screen('changelog', () => import('../pages/changelog/changelog-page'), (m) => m.ChangelogPage, ['pages']),
  screen('pimsimpletextline', () => import('../pages/textlines/text-line-page'), (m) => m.TextLinePage, ['textlines']),
  screen('pimsimpletextlines', () => import('../pages/textlines/text-lines-page'), (m) => m.TextLinesPage, ['textlines']),
  screen('pimfieldsets', () => import('../pages/fieldsets/field-sets-page'), (m) => m.FieldSetsPage, ['fieldsets']),
  screen('pimfieldsetedit', () => import('../pages/fieldsets/field-set-edit-page'), (m) => m.FieldSetEditPage, ['fieldsets']),
  screen('analyzeimagemanualfieldset', () => import('../pages/annotator/choose-field-set-page'), (m) => m.ChooseFieldSetPage, ['annotator']),
  screen('analyzeimagemanual', () => import('../pages/annotator/annotator-page'), (m) => m.AnnotatorPage, ['annotator', 'pages', 'similarity']),
  screen('analyzeimagemanualnew', () => import('../pages/annotator/annotator-page'), (m) => m.NewAnnotatorPage, ['annotator', 'pages', 'similarity']),
  screen('metadataoverview', () => import('../pages/metadata/metadata-overview-page'), (m) => m.MetadataOverviewPage, ['metadata']),
  screen('annotateddatasets', () => import('../pages/metadata/annotated-datasets-page'), (m) => m.AnnotatedDatasetsPage, ['metadata']),
  screen('pimusers', () => import('../pages/users/users-page'), (m) => m.UsersPage, ['users']),
  screen('pimuser', () => import('../pages/users/user-page'), (m) => m.UserPage, ['users']),
  screen('pimuser/self', () => import('../pages/users/user-page'), (m) => m.UserPage, ['users']),
  screen('pimgroups', () => import('../pages/groups/groups-page'), (m) => m.GroupsPage, ['groups']),
  screen('pimgroup', () => import('../pages/groups/group-create-page'), (m) => m.GroupCreatePage, ['groups']),
  screen('pimgroupedit', () => import('../pages/groups/group-edit-page'), (m) => m.GroupEditPage, ['groups']),
  screen('apikeys', () => import('../pages/apikeys/api-keys-page'), (m) => m.ApiKeysPage, ['apikeys']),
  screen('apikey', () => import('../pages/apikeys/api-key-page'), (m) => m.ApiKeyPage, ['apikeys']),
  ...modelRoutes,
  screen('configurations', () => import('../pages/configurations/configurations-page'), (m) => m.ConfigurationsPage, ['settings']),
  screen('configuration', () => import('../pages/configurations/configuration-page'), (m) => m.ConfigurationPage, ['settings']),
  screen('elasticsearchindices', () => import('../pages/searchindices/search-indices-page'), (m) => m.SearchIndicesPage, ['settings']),
  screen('elasticsearchindex', () => import('../pages/searchindices/search-index-page'), (m) => m.SearchIndexPage, ['settings']),
  screen('environments', () => import('../pages/environments/environments-page'), (m) => m.EnvironmentsPage, ['settings']),
  screen('environment', () => import('../pages/environments/environment-page'), (m) => m.EnvironmentPage, ['settings']),
  screen('fontdescriptions', () => import('../pages/fontdescriptions/font-descriptions-page'), (m) => m.FontDescriptionsPage, ['fonts']),
  screen('fontdescription', () => import('../pages/fontdescriptions/font-description-page'), (m) => m.FontDescriptionPage, ['fonts']),
  screen('search', () => import('../pages/search/search-page'), (m) => m.SearchPage, ['search']),
  screen('imagedescription', () => import('../pages/imagedescription/image-description-page'), (m) => m.ImageDescriptionPage, ['imagedescription']),
  screen('findsiamese', () => import('../pages/similarity/find-siamese-page'), (m) => m.FindSiamesePage, ['similarity', 'pages']),
  screen('findsiamesesingle', () => import('../pages/similarity/find-single-page'), (m) => m.FindSinglePage, ['similarity', 'pages']),
  screen('findsiamesesingle2', () => import('../pages/similarity/find-single-new-page'), (m) => m.FindSingleNewPage, ['similarity', 'pages']),
  screen('findsiamesesingleimage', () => import('../pages/similarity/compare-images-page'), (m) => m.CompareImagesPage, ['similarity', 'pages']),
  screen('findsiamesesingleimageset', () => import('../pages/similarity/compare-image-set-page'), (m) => m.CompareImageSetPage, ['similarity', 'pages']),
  screen('siameseconfusionmatrices', () => import('../pages/similarity/confusion-matrices-page'), (m) => m.ConfusionMatricesPage, ['similarity', 'pages']),
  screen('siameseconfusionmatrix', () => import('../pages/similarity/confusion-matrix-page'), (m) => m.ConfusionMatrixPage, ['similarity', 'pages']),
  screen('dashboard', () => import('../pages/dashboard/dashboard-page'), (m) => m.DashboardPage, ['dashboard', 'pages']),
  screen('jobs', () => import('../pages/jobs/jobs-page'), (m) => m.JobsPage, ['jobs']),
  screen('job', () => import('../pages/jobs/job-page'), (m) => m.JobPage, ['jobs']),
  ...subJobRoutes,
  { path: '*', element: <NotFoundPage /> },
]);

/**
 * At the first load, signed in: the data of the screen at `pathname` (a full path, /pim/...), asked
 * for together with the session's calls, so the screen opens with it instead of asking once it has
 * rendered.
 */
export function prefetchScreenData(pathname: string, queryClient: QueryClient): void {
  if (getToken() === null) return;
  for (const handle of screenHandles(pathname)) handle.prefetch?.(queryClient);
}

/** Whether the screen at `pathname` (a full path, /pim/...) is drawn by the server for a signed-in user. */
export function rendersOnServer(pathname: string): boolean {
  return screenHandles(pathname).some((handle) => handle.serverRendered === true);
}

/** The translation namespaces of the screen at `pathname`. */
export function screenNamespaces(pathname: string): string[] {
  return screenHandles(pathname).flatMap((handle) => handle.namespaces);
}

/** The handles of the screen at each path asked about lately: matching ranks every route's compiled path, each time. */
const handlesByPath = new Map<string, ScreenHandle[]>();
const HANDLES_KEPT = 100;

function screenHandles(pathname: string): ScreenHandle[] {
  let handles = handlesByPath.get(pathname);
  if (!handles) {
    handles = (matchRoutes(routes, pathname, BASENAME) ?? []).flatMap(({ route }) => (route.handle as ScreenHandle | undefined) ?? []);
    if (handlesByPath.size >= HANDLES_KEPT) handlesByPath.delete(handlesByPath.keys().next().value!);
    handlesByPath.set(pathname, handles);
  }
  return handles;
}
