/** The File Explorer (spec 2 §2 "Asset manager") in the Portal menu: …/file-explorer?path=. */
import { patterns } from '../../core/paths';
import { registerRoute } from '../../core/registry';

registerRoute({
  id: 'portal.fileExplorer',
  path: patterns.portalFileExplorer,
  lazy: () => import('./FileExplorerScreen'),
});
