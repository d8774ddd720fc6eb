import { MODEL_KINDS } from '@pim/contract';
import { MODEL_SCREENS } from '../models/model-screens';

/** One line of the change log (`changelog.release.<key>` or `changelog.roadmap.<key>`) and the screens (paths under /pim/) it speaks of. */
export interface ChangelogEntry {
  key: string;
  screens: readonly string[];
}

const MODEL_PATHS = MODEL_KINDS.flatMap((kind) => [MODEL_SCREENS[kind].listRoute, MODEL_SCREENS[kind].formRoute ?? []].flat());

/**
 * What this version does, by the screens it built. A test checks that every built screen of the
 * route table is named here, and no unbuilt one, so the change log stays true as screens arrive.
 */
export const RELEASE: readonly ChangelogEntry[] = [
  { key: 'shell', screens: ['', 'login', 'logingoogle', 'settings', 'changelog'] },
  { key: 'imageSets', screens: ['imagesets', 'imageset'] },
  { key: 'documentImages', screens: ['documentimages', 'documentimage', 'analyzeimage', 'polygon'] },
  {
    key: 'metadata',
    screens: ['pimfieldsets', 'pimfieldsetedit', 'analyzeimagemanualfieldset', 'analyzeimagemanual', 'analyzeimagemanualnew', 'metadataoverview', 'annotateddatasets'],
  },
  { key: 'textLines', screens: ['pimsimpletextline', 'pimsimpletextlines'] },
  { key: 'people', screens: ['pimusers', 'pimuser', 'pimuser/self', 'pimgroups', 'pimgroup', 'pimgroupedit', 'apikeys', 'apikey'] },
  {
    key: 'settings',
    screens: ['configurations', 'configuration', 'environments', 'environment', 'elasticsearchindices', 'elasticsearchindex', 'fontdescriptions', 'fontdescription'],
  },
  { key: 'models', screens: MODEL_PATHS },
  { key: 'jobs', screens: ['jobs', 'job', 'p2palajobs', 'siamesenetworkjobs'] },
  { key: 'search', screens: ['search'] },
  {
    key: 'similarity',
    screens: ['findsiamese', 'findsiamesesingle', 'findsiamesesingle2', 'findsiamesesingleimage', 'findsiamesesingleimageset', 'siameseconfusionmatrices', 'siameseconfusionmatrix'],
  },
  { key: 'dashboard', screens: ['dashboard'] },
  { key: 'imageDescription', screens: ['imagedescription'] },
  { key: 'access', screens: [] },
];

/** What comes next. Every screen of the route table is built: what remains is work behind them. */
export const ROADMAP: readonly ChangelogEntry[] = [{ key: 'performance', screens: [] }];
