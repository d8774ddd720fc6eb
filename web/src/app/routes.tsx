import type { RouteObject } from 'react-router';
import { AnnotatorPage } from '../pages/annotator/annotator-page';
import { ChooseFieldSetPage } from '../pages/annotator/choose-field-set-page';
import { ChangelogPage } from '../pages/changelog/changelog-page';
import { DocumentImagePage } from '../pages/documentimage/document-image-page';
import { DocumentImagesPage } from '../pages/documentimages/document-images-page';
import { FieldSetEditPage } from '../pages/fieldsets/field-set-edit-page';
import { FieldSetsPage } from '../pages/fieldsets/field-sets-page';
import { ImageSetPage } from '../pages/imageset/image-set-page';
import { ImageSetsPage } from '../pages/imagesets/image-sets-page';
import { LandingPage } from '../pages/landing/landing-page';
import { LoginGooglePage } from '../pages/login/login-google-page';
import { LoginPage } from '../pages/login/login-page';
import { AnnotatedDatasetsPage } from '../pages/metadata/annotated-datasets-page';
import { MetadataOverviewPage } from '../pages/metadata/metadata-overview-page';
import { PolygonPage } from '../pages/polygon/polygon-page';
import { SettingsPage } from '../pages/settings/settings-page';
import { TextLinePage } from '../pages/textlines/text-line-page';
import { TextLinesPage } from '../pages/textlines/text-lines-page';
import { ApiKeyPage } from '../pages/apikeys/api-key-page';
import { ApiKeysPage } from '../pages/apikeys/api-keys-page';
import { FontDescriptionPage } from '../pages/fontdescriptions/font-description-page';
import { FontDescriptionsPage } from '../pages/fontdescriptions/font-descriptions-page';
import { GroupCreatePage } from '../pages/groups/group-create-page';
import { GroupEditPage } from '../pages/groups/group-edit-page';
import { GroupsPage } from '../pages/groups/groups-page';
import { UserPage } from '../pages/users/user-page';
import { UsersPage } from '../pages/users/users-page';
import { ConfigurationPage } from '../pages/configurations/configuration-page';
import { ConfigurationsPage } from '../pages/configurations/configurations-page';
import { EnvironmentPage } from '../pages/environments/environment-page';
import { EnvironmentsPage } from '../pages/environments/environments-page';
import { SearchIndexPage } from '../pages/searchindices/search-index-page';
import { SearchIndicesPage } from '../pages/searchindices/search-indices-page';
import { UnavailablePage } from '../pages/unavailable/unavailable-page';
import { UNAVAILABLE_SCREENS } from '../pages/unavailable/unavailable-screens';
import { modelRoutes } from '../pages/models/model-routes';
import { AnalyzeImagePage } from '../pages/viewer/analyze-image-page';
import { RouteErrorFallback } from './error-boundary';
import { Layout } from './layout';
import { NotFoundPage } from './not-found-page';

/** The shell around the screens. A failing screen keeps the nav bar, with its error message below it. */
export function withShell(screens: RouteObject[]): RouteObject[] {
  return [
    {
      element: <Layout />,
      errorElement: <RouteErrorFallback />,
      children: [{ errorElement: <RouteErrorFallback />, children: screens }],
    },
  ];
}

export const routes: RouteObject[] = withShell([
  { index: true, element: <LandingPage /> },
  { path: 'login', element: <LoginPage /> },
  { path: 'logingoogle', element: <LoginGooglePage /> },
  { path: 'imagesets', element: <ImageSetsPage /> },
  { path: 'imageset', element: <ImageSetPage /> },
  { path: 'documentimage', element: <DocumentImagePage /> },
  { path: 'documentimages', element: <DocumentImagesPage /> },
  { path: 'analyzeimage', element: <AnalyzeImagePage /> },
  { path: 'polygon', element: <PolygonPage /> },
  { path: 'settings', element: <SettingsPage /> },
  { path: 'changelog', element: <ChangelogPage /> },
  { path: 'pimsimpletextline', element: <TextLinePage /> },
  { path: 'pimsimpletextlines', element: <TextLinesPage /> },
  { path: 'pimfieldsets', element: <FieldSetsPage /> },
  { path: 'pimfieldsetedit', element: <FieldSetEditPage /> },
  { path: 'analyzeimagemanualfieldset', element: <ChooseFieldSetPage /> },
  { path: 'analyzeimagemanual', element: <AnnotatorPage /> },
  { path: 'metadataoverview', element: <MetadataOverviewPage /> },
  { path: 'annotateddatasets', element: <AnnotatedDatasetsPage /> },
  { path: 'pimusers', element: <UsersPage /> },
  { path: 'pimuser', element: <UserPage /> },
  { path: 'pimuser/self', element: <UserPage /> },
  { path: 'pimgroups', element: <GroupsPage /> },
  { path: 'pimgroup', element: <GroupCreatePage /> },
  { path: 'pimgroupedit', element: <GroupEditPage /> },
  { path: 'apikeys', element: <ApiKeysPage /> },
  { path: 'apikey', element: <ApiKeyPage /> },
  ...modelRoutes,
  { path: 'configurations', element: <ConfigurationsPage /> },
  { path: 'configuration', element: <ConfigurationPage /> },
  { path: 'elasticsearchindices', element: <SearchIndicesPage /> },
  { path: 'elasticsearchindex', element: <SearchIndexPage /> },
  { path: 'environments', element: <EnvironmentsPage /> },
  { path: 'environment', element: <EnvironmentPage /> },
  { path: 'fontdescriptions', element: <FontDescriptionsPage /> },
  { path: 'fontdescription', element: <FontDescriptionPage /> },
  ...UNAVAILABLE_SCREENS.map((screen) => ({ path: screen, element: <UnavailablePage screen={screen} /> })),
  { path: '*', element: <NotFoundPage /> },
]);
