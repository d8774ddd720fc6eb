import { notifications } from '@mantine/notifications';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import enCommon from '../../public/locales/en/common.json';
import enAnnotator from '../../public/locales/en/annotator.json';
import enComparison from '../../public/locales/en/comparison.json';
import enDrawings from '../../public/locales/en/drawings.json';
import enFieldsets from '../../public/locales/en/fieldsets.json';
import enUsers from '../../public/locales/en/users.json';
import enGroups from '../../public/locales/en/groups.json';
import enApikeys from '../../public/locales/en/apikeys.json';
import enModels from '../../public/locales/en/models.json';
import enImagesets from '../../public/locales/en/imagesets.json';
import enJobs from '../../public/locales/en/jobs.json';
import enMetadata from '../../public/locales/en/metadata.json';
import enPages from '../../public/locales/en/pages.json';
import enSearch from '../../public/locales/en/search.json';
import enSettings from '../../public/locales/en/settings.json';
import enSimilarity from '../../public/locales/en/similarity.json';
import enImagedescription from '../../public/locales/en/imagedescription.json';
import enDashboard from '../../public/locales/en/dashboard.json';
import { i18n } from '../i18n/translations';
import { clearStoredSession } from '../session/token-store';

// Browser APIs Mantine relies on that jsdom does not implement. Media queries answer as a wide
// screen would (min-width queries match), so tests see the full menu bar, and as a user who asked
// for reduced motion: Mantine's transitions then take no time and leave no timer running. (With
// motion, a tooltip closing as a test ends could start a timer after its own cleanup, which then
// fired after the test file's window was gone.)
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: query.includes('min-width') || query.includes('prefers-reduced-motion: reduce'),
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  }),
});
window.ResizeObserver = class {
  observe() {}
  unobserve() {}
  disconnect() {}
};
window.HTMLElement.prototype.scrollIntoView = () => undefined;

// findBy* and waitFor wait for a state; their 1 s default is a time, which a busy 2-core machine
// overruns (a screen typed into through user-event then fails although nothing is wrong).
configure({ asyncUtilTimeout: 20_000 });

// The real English texts, bundled instead of fetched over HTTP.
const english = {
  common: enCommon,
  pages: enPages,
  imagesets: enImagesets,
  drawings: enDrawings,
  comparison: enComparison,
  fieldsets: enFieldsets,
  users: enUsers,
  groups: enGroups,
  apikeys: enApikeys,
  models: enModels,
  annotator: enAnnotator,
  metadata: enMetadata,
  settings: enSettings,
  jobs: enJobs,
  search: enSearch,
  similarity: enSimilarity,
  imagedescription: enImagedescription,
  dashboard: enDashboard,
};
for (const [ns, texts] of Object.entries(english)) i18n.addResourceBundle('en', ns, texts);

afterEach(() => {
  cleanup();
  // Mantine keeps toasts in a module-wide store: start each test without the last one's.
  notifications.clean();
  notifications.cleanQueue();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  clearStoredSession();
});
