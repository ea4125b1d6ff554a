import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Navigate, useNavigate, useParams } from 'react-router';
import { domainApi, domainKeys } from '../../api/domain';
import { portalKeys } from '../../api/portal';
import type { Domain } from '../../api/types';
import { paths } from '../../core/paths';
import { selectDomain, useSelectionStore } from '../../core/selectionStore';
import { useDomains } from '../../core/useDomains';
import { useSessionStore } from '../../core/sessionStore';
import { LoadError, Loading } from '../../ui/Loading';
import { PageFrame } from '../../ui/PageFrame';
import { useAction } from '../../ui/useAction';
import { DeleteDomainDialog } from './DeleteDomainDialog';
import { DomainGroups } from './DomainGroups';
import { DomainMembers } from './DomainMembers';
import { NameDialog } from './NameDialog';

const domainsPath = paths.adminDomains;

/**
 * Domains (spec 1 §2.1 admin/domains/{domainId}; -1 when there is no domain).
 * Opening -1 while domains exist shows the first one (by name), which is the
 * navigation target rule of the Domains menu entry (core/menus.ts).
 */
export default function DomainsScreen() {
  const { domainId = '-1' } = useParams();
  const navigate = useNavigate();
  const isAdmin = useSessionStore((s) => !!s.user?.admin);
  const domains = useDomains();
  const [creating, setCreating] = useState(false);

  const create = useAction({
    action: (name: string) => domainApi.create(name),
    success: (domain) => `Domain ${domain.name} created.`,
    failure: 'Could not create the domain',
    invalidate: [domainKeys.list],
    onSuccess: (domain) => {
      setCreating(false);
      void navigate(domainsPath(domain.id));
    },
  });

  const list = domains.data ?? [];
  if (domainId === '-1' && list.length > 0) return <Navigate to={domainsPath(list[0].id)} replace />;
  const selected = list.find((d) => String(d.id) === domainId) ?? null;

  return (
    <PageFrame
      title="Domains"
      actions={
        isAdmin && (
          <Button variant="contained" onClick={() => setCreating(true)}>
            Create Domain
          </Button>
        )
      }
    >
      {domains.isPending && <Loading label="Loading Domains" />}
      {domains.isError && (
        <LoadError title="Failed to load the domains" error={domains.error} onRetry={() => void domains.refetch()} />
      )}
      {domains.isSuccess && (
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={3} sx={{ alignItems: 'flex-start' }}>
          <Card variant="outlined" sx={{ width: { xs: '100%', md: 260 }, flexShrink: 0 }}>
            {list.length === 0 ? (
              <Typography sx={{ p: 2 }} color="text.secondary">
                No domains yet.{isAdmin ? ' Create the first one.' : ''}
              </Typography>
            ) : (
              <List dense aria-label="Domains">
                {list.map((d) => (
                  <ListItem key={String(d.id)} disablePadding>
                    <ListItemButton
                      selected={d === selected}
                      aria-current={d === selected ? 'page' : undefined}
                      onClick={() => navigate(domainsPath(d.id))}
                    >
                      <ListItemText primary={d.name} />
                    </ListItemButton>
                  </ListItem>
                ))}
              </List>
            )}
          </Card>
          <Box sx={{ flex: 1, minWidth: 0, width: '100%' }}>
            {selected ? (
              <DomainDetails key={String(selected.id)} domain={selected} isAdmin={isAdmin} />
            ) : (
              list.length > 0 && <Typography color="text.secondary">No such domain.</Typography>
            )}
          </Box>
        </Stack>
      )}
      <NameDialog
        open={creating}
        title="Create Domain"
        label="Domain name"
        submitLabel="Create"
        onSubmit={create.submit}
        onClose={() => setCreating(false)}
      />
    </PageFrame>
  );
}

function DomainDetails({ domain, isAdmin }: { domain: Domain; isAdmin: boolean }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [renaming, setRenaming] = useState(false);

  const rename = useAction({
    action: (name: string) => domainApi.rename(domain.id, name),
    success: (_, name) => `Domain renamed to ${name}.`,
    failure: 'Could not rename the domain',
    invalidate: [domainKeys.list],
    onSuccess: () => setRenaming(false),
  });

  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const remove = useAction({
    action: () => domainApi.remove(domain.id),
    success: `Domain ${domain.name} deleted.`,
    failure: 'Could not delete the domain',
    onSuccess: async () => {
      setConfirmingDelete(false);
      // The domain's portals went with it: leave them if one was open, forget their lists.
      if (String(useSelectionStore.getState().domain?.id) === String(domain.id)) selectDomain(null);
      queryClient.removeQueries({ queryKey: portalKeys.domainWorkspaces(domain.id) });
      queryClient.removeQueries({ queryKey: portalKeys.domainPortals(domain.id) });
      queryClient.removeQueries({ queryKey: portalKeys.domainManaged(domain.id) });
      queryClient.removeQueries({ queryKey: domainKeys.one(domain.id) });
      void navigate(domainsPath(-1), { replace: true });
      await queryClient.invalidateQueries({ queryKey: domainKeys.list });
    },
  });

  const logo = useAction({
    action: (file: File | null) => (file ? domainApi.setLogo(domain.id, file) : domainApi.removeLogo(domain.id)),
    success: (_, file) => (file ? 'Logo uploaded.' : 'Logo removed.'),
    failure: 'Could not change the logo',
    invalidate: [domainKeys.list, domainKeys.logo(domain.id)],
  });

  return (
    <Stack spacing={2}>
      <Card variant="outlined">
        <CardContent>
          <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
            <Typography variant="h5" component="h2" sx={{ flex: 1 }}>
              {domain.name}
            </Typography>
            <Button variant="outlined" onClick={() => setRenaming(true)}>
              Rename
            </Button>
            <Button variant="outlined" component="label" disabled={logo.pending}>
              Upload Logo
              <input
                hidden
                type="file"
                accept="image/png,image/jpeg,image/gif,image/webp"
                aria-label="Logo file"
                onChange={(event) => {
                  const file = event.target.files?.[0];
                  event.target.value = '';
                  if (file) logo.run(file);
                }}
              />
            </Button>
            {domain.hasLogo && (
              <Button variant="outlined" disabled={logo.pending} onClick={() => logo.run(null)}>
                Remove Logo
              </Button>
            )}
            {isAdmin && (
              <Button
                variant="outlined"
                color="error"
                onClick={() => setConfirmingDelete(true)}
                disabled={remove.pending}
              >
                Delete Domain
              </Button>
            )}
          </Stack>
        </CardContent>
      </Card>
      <DomainMembers domain={domain} isAdmin={isAdmin} />
      <DomainGroups domain={domain} />
      {confirmingDelete && (
        <DeleteDomainDialog
          domain={domain}
          busy={remove.pending}
          onConfirm={() => remove.run()}
          onClose={() => setConfirmingDelete(false)}
        />
      )}
      <NameDialog
        open={renaming}
        title="Rename Domain"
        label="Domain name"
        submitLabel="Rename"
        initialName={domain.name}
        onSubmit={rename.submit}
        onClose={() => setRenaming(false)}
      />
    </Stack>
  );
}
