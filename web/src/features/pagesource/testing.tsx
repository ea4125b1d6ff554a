/** Test helpers of source mode (imported by *.test.tsx only): the page answers and the routed screen. */
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { initialSelectionState, useSelectionStore } from '../../core/selectionStore';
import { ToastStack } from '../../ui/ToastStack';
import { clearToasts } from '../../core/toastService';
import { sampleUser } from '../../test/helpers';
import { renderRoute, signIn } from '../../test/render';
import SourceModeScreen from './SourceModeScreen';

export const BASE = '/domain/1/portal/2/branch/master/en_GB/pages';
export const GET_HOME = 'GET api/v1/page/1/2/home';
export const BATCH = 'POST api/v1/portal/1/2/batch';

export const pageAnswer = (id: string, html: string, version: string, extra: object = {}) => ({
  id,
  title: id === 'master-page' ? 'Master Page' : 'Home',
  url: `/pages/${id}.html`,
  parameters: [],
  hidePage: false,
  status: 'PUBLISHED',
  children: [],
  html,
  parentId: 'master-page',
  position: 0,
  path: id === 'master-page' ? 'index.html' : `pages/${id}.html`,
  version,
  sitemapVersion: 's1',
  ...extra,
});

/** Source mode of `pageId` at its route, with the toast stack and a designer-mode route to leave to. */
export function renderSourceMode(
  pageId = 'home',
  user = { ...sampleUser, admin: true },
  permissions: string[] = [],
  search = '',
) {
  clearToasts();
  signIn(user);
  useSelectionStore.setState({
    portal: { id: 2, name: 'Crew Portal', supportLevel: 'FULL' },
    branch: 'master',
    permissions,
  });
  const utils = renderRoute(
    [
      {
        path: '/domain/:domain/portal/:portal/branch/:branch/:language/pages/:pageId/source-mode',
        element: (
          <>
            <SourceModeScreen />
            <ToastStack />
          </>
        ),
      },
      {
        path: '/domain/:domain/portal/:portal/branch/:branch/:language/pages/:pageId/designer-mode',
        element: <h1>Designer of the page</h1>,
      },
    ],
    `${BASE}/${pageId}/source-mode${search}`,
  );
  return { ...utils, user: userEvent.setup() };
}

/** The stand-in of the home page's editor (a textarea: happy-dom cannot run Ace). */
export const editor = () => screen.findByRole('textbox', { name: 'HTML source of Home' });

/** Run after each test: the selection and the stored editor theme start afresh. */
export function resetSourceMode() {
  useSelectionStore.setState({ ...initialSelectionState });
  localStorage.clear();
}
