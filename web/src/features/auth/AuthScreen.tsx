import { useState } from 'react';
import { AuthCard } from './AuthCard';
import { LoginForm } from './LoginForm';
import { OneTimeResetForm } from './OneTimeResetForm';
import { ResetPasswordForm } from './ResetPasswordForm';

type View = { name: 'login' } | { name: 'resetPassword' } | { name: 'oneTimeReset'; username: string; message: string };

/**
 * The sign-in screen shown whenever nobody is signed in (spec 1 §2.4). Its
 * views have no route of their own.
 */
export function AuthScreen() {
  const [view, setView] = useState<View>({ name: 'login' });
  const toLogin = () => setView({ name: 'login' });

  switch (view.name) {
    case 'resetPassword':
      return (
        <AuthCard title="Reset password">
          <ResetPasswordForm onBackToLogin={toLogin} />
        </AuthCard>
      );
    case 'oneTimeReset':
      return (
        <AuthCard title="Create a new password">
          <OneTimeResetForm username={view.username} message={view.message} onBackToLogin={toLogin} />
        </AuthCard>
      );
    default:
      return (
        <AuthCard title="Sign in">
          <LoginForm
            onForgotPassword={() => setView({ name: 'resetPassword' })}
            onOneTimeResetRequired={(username, message) => setView({ name: 'oneTimeReset', username, message })}
          />
        </AuthCard>
      );
  }
}
