import { hasRole, ROLE } from '@pim/contract';

/** `labelKey` is a key of the common namespace; `to` a path inside the router's basename. */
export interface NavLink {
  labelKey: string;
  to: string;
}

export interface NavMenu {
  labelKey: string;
  /** A menu with a target is a plain link; otherwise it opens its items. */
  to?: string;
  items?: NavLink[];
}

const AUTHENTICATED_MENUS: NavMenu[] = [
  {
    labelKey: 'nav.data',
    items: [
      { labelKey: 'nav.imagesets', to: '/imagesets' },
      { labelKey: 'nav.fontDescriptions', to: '/fontdescriptions' },
    ],
  },
  { labelKey: 'nav.analyzeImage', to: '/analyzeimage' },
  {
    labelKey: 'nav.digitalForensics',
    items: [
      { labelKey: 'nav.findSiamese', to: '/findsiamese' },
      { labelKey: 'nav.siameseCompareImages', to: '/findsiamesesingleimage' },
      { labelKey: 'nav.siameseCompareWithImagesets', to: '/findsiamesesingleimageset' },
      { labelKey: 'nav.findSiameseSingle', to: '/findsiamesesingle' },
      { labelKey: 'nav.findSiameseSingleNew', to: '/findsiamesesingle2' },
      { labelKey: 'nav.siameseConfusionMatrices', to: '/siameseconfusionmatrices' },
      { labelKey: 'nav.annotatedDatasets', to: '/annotateddatasets' },
    ],
  },
  {
    labelKey: 'nav.jobs',
    items: [
      { labelKey: 'nav.jobsList', to: '/jobs' },
      { labelKey: 'nav.p2palaJobs', to: '/p2palajobs' },
      { labelKey: 'nav.siameseNetworkJobs', to: '/siamesenetworkjobs' },
    ],
  },
  { labelKey: 'nav.search', to: '/search' },
];

const LOGHI_HTR_MODELS: NavLink = { labelKey: 'nav.loghiHtrModels', to: '/loghihtrmodels' };

function adminItems(roles: readonly string[]): NavLink[] {
  return [
    { labelKey: 'nav.apiKeys', to: '/apikeys' },
    { labelKey: 'nav.users', to: '/pimusers' },
    { labelKey: 'nav.userGroups', to: '/pimgroups' },
    { labelKey: 'nav.pimfieldsets', to: '/pimfieldsets' },
    { labelKey: 'nav.configurations', to: '/configurations' },
    { labelKey: 'nav.environments', to: '/environments' },
    { labelKey: 'nav.elasticsearchIndices', to: '/elasticsearchindices' },
    { labelKey: 'nav.krakenModels', to: '/krakenmodels' },
    { labelKey: 'nav.laypaModels', to: '/laypamodels' },
    // The spec's one exception to case-insensitive roles: this entry needs 'ADMIN' exactly.
    ...(roles.includes(ROLE.ADMIN) ? [LOGHI_HTR_MODELS] : []),
    { labelKey: 'nav.loghiLineDetectionModels', to: '/loghilinedetectionmodels' },
    { labelKey: 'nav.p2palaModels', to: '/p2palamodels' },
    { labelKey: 'nav.pylaiaModels', to: '/pylaiamodels' },
    { labelKey: 'nav.siameseNetworkModels', to: '/siamesenetworkmodels' },
    { labelKey: 'nav.tesseract4Models', to: '/tesseract4models' },
    { labelKey: 'nav.dashboard', to: '/dashboard' },
    { labelKey: 'nav.changelog', to: '/changelog' },
  ];
}

/** The menus the nav bar shows for these roles (spec part 2 §2 and §6). */
export function navMenusFor(roles: readonly string[]): NavMenu[] {
  const menus = hasRole(roles, ROLE.AUTHENTICATED) ? [...AUTHENTICATED_MENUS] : [];
  if (hasRole(roles, ROLE.ADMIN)) menus.push({ labelKey: 'nav.admin', items: adminItems(roles) });
  return menus;
}
