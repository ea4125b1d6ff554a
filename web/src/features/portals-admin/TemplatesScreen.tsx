import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useParams } from 'react-router';
import { portalApi, type Portal, type Template } from '../../api/portal';
import { PermissionView, Restricted } from '../../app/permissions/Restricted';
import { usePermission } from '../../app/permissions/usePermission';
import { toasts } from '../../app/toasts/toastService';
import { firstError, portalName, required } from '../../lib/validation';
import { AdminPage, LoadError, Loading } from '../admin/AdminPage';
import { failureToast, keys, RuleNameDialog } from './shared';

export const TEMPLATE_MESSAGES = {
  createFailed: (name: string) => `Could not create template '${name}'`,
  deleteFailed: (name: string) => `Could not delete template '${name}'`,
  renameFailed: (name: string) => `Could not rename template '${name}'`,
} as const;

const templateName = (t: Template) => t.templateName || t.name;

/** Manage Templates (spec 3 §2 domain/{domain}/template-management). */
export default function TemplatesScreen() {
  const { domain = '' } = useParams();
  return (
    <PermissionView permission="template:r">
      <TemplatesView key={domain} domain={domain} />
    </PermissionView>
  );
}

function TemplatesView({ domain }: { domain: string }) {
  const queryClient = useQueryClient();
  const templates = useQuery({ queryKey: keys.templates(domain), queryFn: () => portalApi.templates(domain) });
  const canCreate = usePermission('template_create');
  const canListPortals = usePermission('portal:r');
  const portals = useQuery({
    queryKey: keys.portals(domain),
    queryFn: () => portalApi.list(domain),
    enabled: canCreate && canListPortals,
  });
  const [creating, setCreating] = useState(false);
  const [renaming, setRenaming] = useState<Template | null>(null);

  const refresh = () => queryClient.invalidateQueries({ queryKey: keys.templates(domain) });

  const rename = useMutation({
    mutationFn: ({ template, name }: { template: Template; name: string }) =>
      portalApi.renameTemplate(domain, template.id, name),
    onSuccess: async (_, { name }) => {
      toasts.success(`Template renamed to ${name}.`, 'SUCCESS');
      setRenaming(null);
      await refresh();
    },
    onError: (error, { template }) => failureToast(TEMPLATE_MESSAGES.renameFailed(templateName(template)), error),
  });

  const remove = useMutation({
    mutationFn: (template: Template) => portalApi.deleteTemplate(domain, template.id),
    onSuccess: async (_, template) => {
      toasts.success(`Template ${templateName(template)} deleted.`, 'SUCCESS');
      await refresh();
    },
    onError: (error, template) => failureToast(TEMPLATE_MESSAGES.deleteFailed(templateName(template)), error),
  });

  async function confirmDelete(template: Template) {
    const question = `Delete the template ${templateName(template)}? Portals created from it stay.`;
    if (await toasts.prompt(question, { title: 'Delete Template' })) remove.mutate(template);
  }

  const list = templates.data ?? [];

  return (
    <AdminPage
      title="Manage Templates"
      intro="New portals start from a template: a built-in starter or one of this domain's templates."
      actions={
        <Restricted permission="template_create">
          <Button variant="contained" onClick={() => setCreating(true)} disabled={!templates.isSuccess}>
            Create Template
          </Button>
        </Restricted>
      }
    >
      {templates.isPending && <Loading label="Loading templates" />}
      {templates.isError && (
        <LoadError
          title={`Could not retrieve templates for domain ID ${domain}`}
          error={templates.error}
          onRetry={() => void templates.refetch()}
        />
      )}
      {templates.isSuccess && (
        <Card variant="outlined">
          <TableContainer>
            <Table size="small" aria-label="Templates">
              <TableHead>
                <TableRow>
                  <TableCell>Name</TableCell>
                  <TableCell>Kind</TableCell>
                  <TableCell>Engine</TableCell>
                  <TableCell align="right">Actions</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {list.map((t) => (
                  <TableRow key={t.id} hover>
                    <TableCell component="th" scope="row">
                      {templateName(t)}
                    </TableCell>
                    <TableCell>
                      {t.builtIn ? (
                        <Chip size="small" label="Built-in" color="primary" variant="outlined" />
                      ) : (
                        'Domain template'
                      )}
                      {t.updating && <Chip size="small" label="Updating" sx={{ ml: 1 }} />}
                      {t.updateError && <Chip size="small" color="error" label={t.updateError} sx={{ ml: 1 }} />}
                    </TableCell>
                    <TableCell>{t.engineType ?? ''}</TableCell>
                    <TableCell align="right">
                      {!t.builtIn && (
                        <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
                          <Restricted permission="template_write">
                            <Button
                              size="small"
                              aria-label={`Rename template ${templateName(t)}`}
                              onClick={() => setRenaming(t)}
                            >
                              Rename
                            </Button>
                          </Restricted>
                          <Restricted permission="template_delete">
                            <Button
                              size="small"
                              color="error"
                              aria-label={`Delete template ${templateName(t)}`}
                              disabled={remove.isPending}
                              onClick={() => void confirmDelete(t)}
                            >
                              Delete
                            </Button>
                          </Restricted>
                        </Stack>
                      )}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        </Card>
      )}
      <CreateTemplateDialog
        open={creating}
        domain={domain}
        starters={list.filter((t) => t.builtIn && t.starter)}
        portals={portals.data ?? []}
        onClose={() => setCreating(false)}
        onCreated={() => {
          setCreating(false);
          void refresh();
        }}
      />
      <RuleNameDialog
        open={renaming !== null}
        title="Rename Template"
        label="Template name"
        submitLabel="Rename"
        initialName={renaming ? templateName(renaming) : ''}
        busy={rename.isPending}
        validate={portalName}
        onSubmit={(name) => renaming && rename.mutate({ template: renaming, name })}
        onClose={() => setRenaming(null)}
      />
    </AdminPage>
  );
}

function CreateTemplateDialog(props: {
  open: boolean;
  domain: string;
  starters: Template[];
  portals: Portal[];
  onClose: () => void;
  onCreated: () => void;
}) {
  const [busy, setBusy] = useState(false);
  return (
    <Dialog open={props.open} onClose={() => !busy && props.onClose()} fullWidth maxWidth="xs">
      {props.open && <CreateTemplateForm {...props} busy={busy} setBusy={setBusy} />}
    </Dialog>
  );
}

function CreateTemplateForm({
  domain,
  starters,
  portals,
  onClose,
  onCreated,
  busy,
  setBusy,
}: {
  domain: string;
  starters: Template[];
  portals: Portal[];
  onClose: () => void;
  onCreated: () => void;
  busy: boolean;
  setBusy: (busy: boolean) => void;
}) {
  const [name, setName] = useState('');
  const [touched, setTouched] = useState(false);
  const [source, setSource] = useState(starters[0]?.starter ? `starter:${starters[0].starter}` : '');
  const error = firstError(name, required, portalName);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (error || !source || busy) return;
    const [kind, value] = source.split(/:(.*)/s);
    setBusy(true);
    try {
      await portalApi.createTemplate(
        domain,
        name.trim(),
        kind === 'starter' ? { starter: value } : { portalId: Number(value) },
      );
      toasts.success(`Template ${name.trim()} created.`, 'SUCCESS');
      onCreated();
    } catch (e) {
      failureToast(TEMPLATE_MESSAGES.createFailed(name.trim()), e);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form noValidate onSubmit={(e) => void submit(e)}>
      <DialogTitle>Create Template</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField
            label="Template name"
            required
            autoFocus
            size="small"
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              setTouched(true);
            }}
            onBlur={() => setTouched(true)}
            error={touched && !!error}
            helperText={(touched && error) || ' '}
          />
          <TextField select label="Source" size="small" value={source} onChange={(e) => setSource(e.target.value)}>
            {starters.length > 0 && <MenuItem disabled>Built-in starters</MenuItem>}
            {starters.map((t) => (
              <MenuItem key={t.id} value={`starter:${t.starter ?? ''}`}>
                {templateName(t)}
              </MenuItem>
            ))}
            {portals.length > 0 && <MenuItem disabled>Portals of this domain</MenuItem>}
            {portals.map((p) => (
              <MenuItem key={p.id} value={`portal:${String(p.id)}`}>
                {p.name}
              </MenuItem>
            ))}
          </TextField>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button type="submit" variant="contained" disabled={!!error || !source || busy}>
          Create
        </Button>
      </DialogActions>
    </form>
  );
}
