import Box from '@mui/material/Box';
import DialogContentText from '@mui/material/DialogContentText';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { domainKeys } from '../../api/domain';
import { portalApi } from '../../api/portal';
import type { Domain } from '../../api/types';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { LoadError, Loading } from '../../ui/Loading';
import { useGroups, useMembers } from './domainQueries';
import { DELETE_DOMAIN_TEXT, memberLabel, sortedNames } from './model';

/** A list of names in a dialog, scrolling when long. */
function NameList({ label, names }: { label: string; names: string[] }) {
  if (names.length === 0) return null;
  return (
    <Box component="ul" aria-label={label} sx={{ mt: 0.5, mb: 1.5, pl: 3, maxHeight: 180, overflowY: 'auto' }}>
      {names.map((name, i) => (
        <li key={`${name}-${i}`}>
          <Typography variant="body2">{name}</Typography>
        </li>
      ))}
    </Box>
  );
}

/**
 * Says what deleting a domain deletes before it happens: its portals by name (with their
 * repositories; the server audits each), its members (who lose access) and its groups.
 * Delete is offered only once the portals are known.
 */
export function DeleteDomainDialog({
  domain,
  busy,
  onConfirm,
  onClose,
}: {
  domain: Domain;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const portals = useQuery({
    queryKey: domainKeys.portals(domain.id),
    queryFn: () => portalApi.list(domain.id),
    staleTime: 0,
  });
  const members = useMembers(domain.id);
  const groups = useGroups(domain.id);
  const portalNames = sortedNames((portals.data ?? []).map((p) => p.name));
  const memberNames = (members.data ?? []).map(memberLabel);
  const groupNames = (groups.data ?? []).map((g) => g.groupName);
  const known = portals.isSuccess && members.isSuccess && groups.isSuccess;
  return (
    <ConfirmDialog
      open
      title={DELETE_DOMAIN_TEXT.title}
      maxWidth="sm"
      message={
        <>
          <DialogContentText sx={{ mb: 1.5 }}>{DELETE_DOMAIN_TEXT.intro(domain.name)}</DialogContentText>
          {portals.isPending && <Loading label="Loading portals" />}
          {portals.isError && (
            <LoadError
              title={DELETE_DOMAIN_TEXT.portalsFailed}
              error={portals.error}
              onRetry={() => void portals.refetch()}
            />
          )}
          {portals.isSuccess && (
            <>
              <Typography variant="subtitle2" component="p">
                {portalNames.length === 0
                  ? DELETE_DOMAIN_TEXT.noPortals
                  : DELETE_DOMAIN_TEXT.portals(portalNames.length)}
              </Typography>
              <NameList label="Portals to delete" names={portalNames} />
            </>
          )}
          {members.isSuccess && (
            <>
              <Typography variant="subtitle2" component="p">
                {DELETE_DOMAIN_TEXT.members(memberNames.length)}
              </Typography>
              <NameList label="Members losing access" names={memberNames} />
            </>
          )}
          {(members.isError || groups.isError) && (
            <LoadError
              title="Could not list the members and groups of the domain"
              error={members.error ?? groups.error}
              onRetry={() => void Promise.all([members.refetch(), groups.refetch()])}
            />
          )}
          {groups.isSuccess && (
            <>
              <Typography variant="subtitle2" component="p">
                {DELETE_DOMAIN_TEXT.groups(groupNames.length)}
              </Typography>
              <NameList label="Groups to delete" names={groupNames} />
            </>
          )}
        </>
      }
      confirmLabel="Delete Domain"
      danger
      pending={busy}
      confirmDisabled={!known}
      onConfirm={onConfirm}
      onClose={onClose}
    />
  );
}
