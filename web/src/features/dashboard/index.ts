/** The welcome dashboard (the signed-in root route), lazily loaded: its own chunk. */
export const loadWelcomeDashboard = () => import('./WelcomeDashboard');
