import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect, useRef } from 'react';
import { createHashRouter, Link, Outlet, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { focusHeadingWhenShown, MAIN_ID, useRouteFocus } from './mainFocus';
import { SkipLink, SKIP_LINK_TEXT } from './SkipLink';

afterEach(() => {
  document.body.innerHTML = '';
});

function mainWith(html: string) {
  document.body.innerHTML = `<button id="nav">Nav</button><main id="${MAIN_ID}">${html}</main>`;
  const nav = document.getElementById('nav') as HTMLButtonElement;
  nav.focus();
  return { main: document.getElementById(MAIN_ID) as HTMLElement, nav };
}

describe('focusHeadingWhenShown', () => {
  it('focuses the heading (focusable by script, not a Tab stop)', () => {
    const { main } = mainWith('<h1>Users</h1>');
    focusHeadingWhenShown(main);
    const h1 = screen.getByRole('heading', { name: 'Users' });
    expect(h1).toHaveFocus();
    expect(h1).toHaveAttribute('tabindex', '-1');
  });

  it('holds the focus on the region while the screen loads, then gives it to the heading', async () => {
    const { main } = mainWith('<p>Loading</p>');
    focusHeadingWhenShown(main);
    expect(main).toHaveFocus();
    main.insertAdjacentHTML('beforeend', '<h1>Users</h1>');
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Users' })).toHaveFocus());
  });

  it('leaves the focus where the user put it while the screen loaded', async () => {
    const { main, nav } = mainWith('<p>Loading</p>');
    focusHeadingWhenShown(main);
    nav.focus();
    main.insertAdjacentHTML('beforeend', '<h1>Users</h1>');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(nav).toHaveFocus();
  });
});

describe('SkipLink', () => {
  it('moves the focus to the screen’s heading without changing the route', async () => {
    const user = userEvent.setup();
    render(
      <>
        <SkipLink />
        <button>Nav</button>
        <main id={MAIN_ID}>
          <h1>Crew Portal</h1>
        </main>
      </>,
    );
    await user.tab();
    const link = screen.getByRole('link', { name: SKIP_LINK_TEXT });
    expect(link).toHaveFocus();
    const hash = window.location.hash;
    await user.keyboard('{Enter}');
    expect(screen.getByRole('heading', { name: 'Crew Portal' })).toHaveFocus();
    expect(window.location.hash).toBe(hash);
  });
});

function Frame() {
  const main = useRef<HTMLElement>(null);
  useRouteFocus(main);
  return (
    <>
      <nav>
        <Link to="/users">Users</Link>
        <Link to="/search">Search</Link>
      </nav>
      <main ref={main}>
        <Outlet />
      </main>
    </>
  );
}

function SearchScreen() {
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => field.current?.focus(), []);
  return (
    <>
      <h1>Search</h1>
      <input ref={field} aria-label="Phrase" />
    </>
  );
}

/** At the URL's hash, as the app: the press that goes to a screen is made at the URL before it. */
function renderFrame() {
  window.location.hash = '#/';
  const router = createHashRouter([
    {
      element: <Frame />,
      children: [
        { path: '/', element: <h1>Welcome</h1> },
        { path: '/users', element: <h1>Users</h1> },
        { path: '/search', element: <SearchScreen /> },
      ],
    },
  ]);
  render(<RouterProvider router={router} />);
  return router;
}

describe('useRouteFocus', () => {
  it('leaves the first screen and the redirects before any key or pointer alone', async () => {
    const router = renderFrame();
    await act(() => router.navigate('/users'));
    expect(screen.getByRole('heading', { name: 'Users' })).not.toHaveFocus();
    expect(document.body).toHaveFocus();
  });

  it('puts the focus on the new screen’s heading after the user went there', async () => {
    const user = userEvent.setup();
    renderFrame();
    await user.tab();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Users' })).toHaveFocus());
  });

  it('leaves the focus alone when the user pressed keys at the new URL before its screen showed', async () => {
    const user = userEvent.setup();
    const router = renderFrame();
    await user.tab();
    window.history.pushState(null, '', '#/users'); // the URL first; the screen comes later
    await user.tab();
    await act(() => router.navigate('/users'));
    expect(screen.getByRole('link', { name: 'Search' })).toHaveFocus();
  });

  it('leaves a field the new screen focuses on purpose', async () => {
    const user = userEvent.setup();
    renderFrame();
    await user.click(screen.getByRole('link', { name: 'Search' }));
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Phrase' })).toHaveFocus());
  });
});
