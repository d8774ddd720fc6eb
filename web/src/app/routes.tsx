import { MODEL_KINDS } from '@pim/contract';
import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { Spinner } from '../components/spinner';
import { LandingPage } from '../pages/landing/landing-page';
import { MODEL_SCREENS } from '../pages/models/model-screens';
import { RouteErrorFallback } from './error-boundary';
import { Layout } from './layout';
import { NotFoundPage } from './not-found-page';

/** The shell around the screens. A failing screen keeps the nav bar, with its error message below it. */
export function withShell(screens: RouteObject[]): RouteObject[] {
  return [
    {
      element: <Layout />,
      errorElement: <RouteErrorFallback />,
      // On the first load the shell shows at once, with the spinner where the screen's code is awaited.
      children: [{ errorElement: <RouteErrorFallback />, hydrateFallbackElement: <Spinner />, children: screens }],
    },
  ];
}

/**
 * A screen whose code is loaded when it is first opened, so each page is a chunk of its own and
 * the first load carries only the shell. The import stays literal: the bundler splits on it.
 */
function screen<M>(path: string, load: () => Promise<M>, pick: (module: M) => ComponentType): RouteObject {
  return { path, lazy: async () => ({ Component: pick(await load()) }) };
}

/** Each model kind's list and, where it has one, its form/detail route; `key` gives each kind its own state. */
const modelRoutes: RouteObject[] = MODEL_KINDS.flatMap((kind) => {
  const { listRoute, formRoute } = MODEL_SCREENS[kind];
  const list: RouteObject = {
    path: listRoute,
    lazy: async () => {
      const { ModelsPage } = await import('../pages/models/models-page');
      return { element: <ModelsPage key={kind} kind={kind} /> };
    },
  };
  if (!formRoute) return [list];
  const form: RouteObject = {
    path: formRoute,
    lazy: async () => {
      const { ModelPage } = await import('../pages/models/model-page');
      return { element: <ModelPage key={kind} kind={kind} /> };
    },
  };
  return [list, form];
});

/** The P2PaLA and Siamese network jobs' lists: one screen, its records by kind. */
const subJobRoutes: RouteObject[] = (['p2pala', 'siamese'] as const).map((kind) => ({
  path: kind === 'p2pala' ? 'p2palajobs' : 'siamesenetworkjobs',
  lazy: async () => {
    const { SubJobsPage } = await import('../pages/jobs/sub-jobs-page');
    return { element: <SubJobsPage key={kind} kind={kind} /> };
  },
}));

export const routes: RouteObject[] = withShell([
  { index: true, element: <LandingPage /> },
  screen('login', () => import('../pages/login/login-page'), (m) => m.LoginPage),
  screen('logingoogle', () => import('../pages/login/login-google-page'), (m) => m.LoginGooglePage),
  screen('imagesets', () => import('../pages/imagesets/image-sets-page'), (m) => m.ImageSetsPage),
  screen('imageset', () => import('../pages/imageset/image-set-page'), (m) => m.ImageSetPage),
  screen('documentimage', () => import('../pages/documentimage/document-image-page'), (m) => m.DocumentImagePage),
  screen('documentimages', () => import('../pages/documentimages/document-images-page'), (m) => m.DocumentImagesPage),
  screen('analyzeimage', () => import('../pages/viewer/analyze-image-page'), (m) => m.AnalyzeImagePage),
  screen('polygon', () => import('../pages/polygon/polygon-page'), (m) => m.PolygonPage),
  screen('settings', () => import('../pages/settings/settings-page'), (m) => m.SettingsPage),
  screen('changelog', () => import('../pages/changelog/changelog-page'), (m) => m.ChangelogPage),
  screen('pimsimpletextline', () => import('../pages/textlines/text-line-page'), (m) => m.TextLinePage),
  screen('pimsimpletextlines', () => import('../pages/textlines/text-lines-page'), (m) => m.TextLinesPage),
  screen('pimfieldsets', () => import('../pages/fieldsets/field-sets-page'), (m) => m.FieldSetsPage),
  screen('pimfieldsetedit', () => import('../pages/fieldsets/field-set-edit-page'), (m) => m.FieldSetEditPage),
  screen('analyzeimagemanualfieldset', () => import('../pages/annotator/choose-field-set-page'), (m) => m.ChooseFieldSetPage),
  screen('analyzeimagemanual', () => import('../pages/annotator/annotator-page'), (m) => m.AnnotatorPage),
  screen('analyzeimagemanualnew', () => import('../pages/annotator/annotator-page'), (m) => m.NewAnnotatorPage),
  screen('metadataoverview', () => import('../pages/metadata/metadata-overview-page'), (m) => m.MetadataOverviewPage),
  screen('annotateddatasets', () => import('../pages/metadata/annotated-datasets-page'), (m) => m.AnnotatedDatasetsPage),
  screen('pimusers', () => import('../pages/users/users-page'), (m) => m.UsersPage),
  screen('pimuser', () => import('../pages/users/user-page'), (m) => m.UserPage),
  screen('pimuser/self', () => import('../pages/users/user-page'), (m) => m.UserPage),
  screen('pimgroups', () => import('../pages/groups/groups-page'), (m) => m.GroupsPage),
  screen('pimgroup', () => import('../pages/groups/group-create-page'), (m) => m.GroupCreatePage),
  screen('pimgroupedit', () => import('../pages/groups/group-edit-page'), (m) => m.GroupEditPage),
  screen('apikeys', () => import('../pages/apikeys/api-keys-page'), (m) => m.ApiKeysPage),
  screen('apikey', () => import('../pages/apikeys/api-key-page'), (m) => m.ApiKeyPage),
  ...modelRoutes,
  screen('configurations', () => import('../pages/configurations/configurations-page'), (m) => m.ConfigurationsPage),
  screen('configuration', () => import('../pages/configurations/configuration-page'), (m) => m.ConfigurationPage),
  screen('elasticsearchindices', () => import('../pages/searchindices/search-indices-page'), (m) => m.SearchIndicesPage),
  screen('elasticsearchindex', () => import('../pages/searchindices/search-index-page'), (m) => m.SearchIndexPage),
  screen('environments', () => import('../pages/environments/environments-page'), (m) => m.EnvironmentsPage),
  screen('environment', () => import('../pages/environments/environment-page'), (m) => m.EnvironmentPage),
  screen('fontdescriptions', () => import('../pages/fontdescriptions/font-descriptions-page'), (m) => m.FontDescriptionsPage),
  screen('fontdescription', () => import('../pages/fontdescriptions/font-description-page'), (m) => m.FontDescriptionPage),
  screen('search', () => import('../pages/search/search-page'), (m) => m.SearchPage),
  screen('imagedescription', () => import('../pages/imagedescription/image-description-page'), (m) => m.ImageDescriptionPage),
  screen('findsiamese', () => import('../pages/similarity/find-siamese-page'), (m) => m.FindSiamesePage),
  screen('findsiamesesingle', () => import('../pages/similarity/find-single-page'), (m) => m.FindSinglePage),
  screen('findsiamesesingle2', () => import('../pages/similarity/find-single-new-page'), (m) => m.FindSingleNewPage),
  screen('findsiamesesingleimage', () => import('../pages/similarity/compare-images-page'), (m) => m.CompareImagesPage),
  screen('findsiamesesingleimageset', () => import('../pages/similarity/compare-image-set-page'), (m) => m.CompareImageSetPage),
  screen('siameseconfusionmatrices', () => import('../pages/similarity/confusion-matrices-page'), (m) => m.ConfusionMatricesPage),
  screen('siameseconfusionmatrix', () => import('../pages/similarity/confusion-matrix-page'), (m) => m.ConfusionMatrixPage),
  screen('dashboard', () => import('../pages/dashboard/dashboard-page'), (m) => m.DashboardPage),
  screen('jobs', () => import('../pages/jobs/jobs-page'), (m) => m.JobsPage),
  screen('job', () => import('../pages/jobs/job-page'), (m) => m.JobPage),
  ...subJobRoutes,
  { path: '*', element: <NotFoundPage /> },
]);
