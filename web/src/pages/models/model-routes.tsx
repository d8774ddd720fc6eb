import { MODEL_KINDS } from '@pim/contract';
import type { RouteObject } from 'react-router';
import { ModelPage } from './model-page';
import { ModelsPage } from './models-page';
import { MODEL_SCREENS } from './model-screens';

/** Each kind's list and, where it has one, its form/detail route; `key` gives each kind its own state. */
export const modelRoutes: RouteObject[] = MODEL_KINDS.flatMap((kind) => {
  const { listRoute, formRoute } = MODEL_SCREENS[kind];
  const list: RouteObject = { path: listRoute, element: <ModelsPage key={kind} kind={kind} /> };
  return formRoute ? [list, { path: formRoute, element: <ModelPage key={kind} kind={kind} /> }] : [list];
});
