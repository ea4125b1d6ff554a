import { useRouteError } from 'react-router';
import { basePath, reloadPage } from '../../core/location';
import { GlobalErrorScreen } from '../errors/GlobalErrorScreen';

/**
 * Shown when a route fails to render or its code cannot be loaded (for
 * example after a new deployment replaced the chunk files).
 */
export function RouteErrorScreen() {
  const error = useRouteError();
  console.error(error);
  return (
    <GlobalErrorScreen
      title="Something went wrong"
      message="This part of Portalwright could not be loaded."
      actions={{
        retry: reloadPage,
        continue: () => window.location.assign(`${basePath()}#/`),
      }}
    />
  );
}
