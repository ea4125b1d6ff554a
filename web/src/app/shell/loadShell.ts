/** The signed-in shell is its own chunk: loaded after login, never by the login page. */
export const loadShell = () => import('./ShellFrame');
