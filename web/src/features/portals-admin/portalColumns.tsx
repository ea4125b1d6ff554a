import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import { lookupLabel, type LookupEntry } from '../../api/lookup';
import type { Portal } from '../../api/portal';
import { Restricted } from '../../ui/Restricted';
import { formatDateTime } from '../../lib/format';
import type { Column } from '../../ui/DataTable';
import { isActivePortal as isActive, type StatusAction } from './model';

export interface RowActions {
  types: LookupEntry[];
  scopes: LookupEntry[];
  onStatus: (portal: Portal, action: StatusAction) => void;
  onClone: (portal: Portal) => void;
  onMove: (portal: Portal) => void;
  cloneReady: boolean;
}

/** The columns of the portal list: facts, then the actions the user holds. */
export function portalColumns({
  types,
  scopes,
  onStatus,
  onClone,
  onMove,
  cloneReady,
}: RowActions): Array<Column<Portal>> {
  return [
    { id: 'name', header: 'Name', cell: (p) => p.name, sortValue: (p) => p.name, rowHeader: true },
    { id: 'type', header: 'Type', cell: (p) => lookupLabel(types, p.type), sortValue: (p) => p.type },
    { id: 'scope', header: 'Scope', cell: (p) => lookupLabel(scopes, p.scope), sortValue: (p) => p.scope },
    { id: 'category', header: 'Category', cell: (p) => p.category || '—', sortValue: (p) => p.category },
    {
      id: 'status',
      header: 'Status',
      sortValue: (p) => (isActive(p) ? 0 : 1),
      cell: (p) => (
        <Chip
          size="small"
          label={isActive(p) ? 'Active' : 'Inactive'}
          color={isActive(p) ? 'success' : 'default'}
          variant={isActive(p) ? 'filled' : 'outlined'}
        />
      ),
    },
    {
      id: 'lastModified',
      header: 'Last modified',
      sortValue: (p) => p.lastModified,
      cell: (p) => <Box sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(p.lastModified)}</Box>,
    },
    {
      id: 'actions',
      header: 'Actions',
      align: 'right',
      cell: (portal) => (
        <Stack direction="row" spacing={0.5} sx={{ justifyContent: 'flex-end', whiteSpace: 'nowrap' }}>
          {isActive(portal) ? (
            <Restricted permission="portal_deactivate">
              <Button
                size="small"
                aria-label={`Deactivate ${portal.name}`}
                onClick={() => onStatus(portal, 'deactivate')}
              >
                Deactivate
              </Button>
            </Restricted>
          ) : (
            <Restricted permission="portal_activate">
              <Button size="small" aria-label={`Activate ${portal.name}`} onClick={() => onStatus(portal, 'activate')}>
                Activate
              </Button>
            </Restricted>
          )}
          <Restricted permission="portal_create">
            <Button
              size="small"
              aria-label={`Clone ${portal.name}`}
              onClick={() => onClone(portal)}
              disabled={!cloneReady}
            >
              Clone
            </Button>
          </Restricted>
          <Restricted permission="category_link">
            <Button size="small" aria-label={`Move to category: ${portal.name}`} onClick={() => onMove(portal)}>
              Move to category
            </Button>
          </Restricted>
          <Restricted permission="portal_delete">
            <Button
              size="small"
              color="error"
              aria-label={`Delete ${portal.name}`}
              onClick={() => onStatus(portal, 'delete')}
            >
              Delete
            </Button>
          </Restricted>
        </Stack>
      ),
    },
  ];
}
