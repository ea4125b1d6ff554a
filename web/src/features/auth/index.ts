/**
 * Sign-in (spec 1 §2.2): the screen the session gate shows while signed out, and the lazily
 * loaded route of a password-reset link (its own chunk).
 */
export { AuthScreen } from './AuthScreen';
export const loadConfirmPasswordScreen = () => import('./ConfirmPasswordScreen');
