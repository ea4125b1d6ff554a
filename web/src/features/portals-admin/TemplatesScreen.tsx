import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { z } from 'zod';
import { useParams } from 'react-router';
import { portalApi, portalKeys, type Portal, type Template } from '../../api/portal';
import { PermissionView, Restricted } from '../../ui/Restricted';
import { usePermission } from '../../core/usePermission';
import { toasts } from '../../core/toastService';
import { portalName } from '../../lib/validation';
import { PageFrame } from '../../ui/PageFrame';
import { DataTable } from '../../ui/DataTable';
import { FormDialog } from '../../ui/FormDialog';
import { requiredField } from '../../ui/schemas';
import { ValidatedTextField } from '../../ui/ValidatedTextField';
import { RuleNameDialog } from './shared';
import { useAction } from '../../ui/useAction';

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
  const templates = useQuery({ queryKey: portalKeys.templates(domain), queryFn: () => portalApi.templates(domain) });
  const canCreate = usePermission('template_create');
  const canListPortals = usePermission('portal:r');
  const portals = useQuery({
    queryKey: portalKeys.managed(domain),
    queryFn: () => portalApi.list(domain),
    enabled: canCreate && canListPortals,
  });
  const [creating, setCreating] = useState(false);
  const [renaming, setRenaming] = useState<Template | null>(null);

  const refresh = () => queryClient.invalidateQueries({ queryKey: portalKeys.templates(domain) });

  const rename = useAction({
    action: ({ template, name }: { template: Template; name: string }) =>
      portalApi.renameTemplate(domain, template.id, name),
    success: (_, { name }) => `Template renamed to ${name}.`,
    failure: ({ template }) => TEMPLATE_MESSAGES.renameFailed(templateName(template)),
    onSuccess: async () => {
      setRenaming(null);
      await refresh();
    },
  });

  const remove = useAction({
    action: (template: Template) => portalApi.deleteTemplate(domain, template.id),
    success: (_, template) => `Template ${templateName(template)} deleted.`,
    failure: (template) => TEMPLATE_MESSAGES.deleteFailed(templateName(template)),
    onSuccess: refresh,
  });

  async function confirmDelete(template: Template) {
    const question = `Delete the template ${templateName(template)}? Portals created from it stay.`;
    if (await toasts.prompt(question, { title: 'Delete Template' })) remove.run(template);
  }

  const list = templates.data ?? [];

  return (
    <PageFrame
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
      <DataTable
        label="Templates"
        columns={[
          {
            id: 'name',
            header: 'Name',
            cell: (t) => templateName(t),
            sortValue: (t) => templateName(t),
            rowHeader: true,
          },
          {
            id: 'kind',
            header: 'Kind',
            sortValue: (t) => (t.builtIn ? 0 : 1),
            cell: (t) => (
              <>
                {t.builtIn ? (
                  <Chip size="small" label="Built-in" color="primary" variant="outlined" />
                ) : (
                  'Domain template'
                )}
                {t.updating && <Chip size="small" label="Updating" sx={{ ml: 1 }} />}
                {t.updateError && <Chip size="small" color="error" label={t.updateError} sx={{ ml: 1 }} />}
              </>
            ),
          },
          { id: 'engine', header: 'Engine', cell: (t) => t.engineType ?? '' },
          {
            id: 'actions',
            header: 'Actions',
            align: 'right',
            cell: (t) =>
              !t.builtIn && (
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
                      disabled={remove.pending}
                      onClick={() => void confirmDelete(t)}
                    >
                      Delete
                    </Button>
                  </Restricted>
                </Stack>
              ),
          },
        ]}
        rows={templates.data}
        rowKey={(t) => t.id}
        loading={templates.isPending}
        loadingText="Loading templates"
        error={templates.error}
        errorTitle={`Could not retrieve templates for domain ID ${domain}`}
        onRetry={() => void templates.refetch()}
        emptyText="No templates."
      />
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
        validate={portalName}
        onSubmit={(name) => (renaming ? rename.submit({ template: renaming, name }) : Promise.resolve())}
        onClose={() => setRenaming(null)}
      />
    </PageFrame>
  );
}

const createTemplateSchema = z.object({ name: requiredField(portalName), source: z.string().min(1) });

function CreateTemplateDialog({
  open,
  domain,
  starters,
  portals,
  onClose,
  onCreated,
}: {
  open: boolean;
  domain: string;
  starters: Template[];
  portals: Portal[];
  onClose: () => void;
  onCreated: () => void;
}) {
  const create = useAction({
    action: ({ name, source }: { name: string; source: string }) => {
      const [kind, value] = source.split(/:(.*)/s);
      return portalApi.createTemplate(
        domain,
        name.trim(),
        kind === 'starter' ? { starter: value } : { portalId: Number(value) },
      );
    },
    success: (_, { name }) => `Template ${name.trim()} created.`,
    failure: ({ name }) => TEMPLATE_MESSAGES.createFailed(name.trim()),
    onSuccess: onCreated,
  });

  return (
    <FormDialog
      open={open}
      title="Create Template"
      schema={createTemplateSchema}
      defaultValues={{ name: '', source: starters[0]?.starter ? `starter:${starters[0].starter}` : '' }}
      submitLabel="Create"
      maxWidth="xs"
      onSubmit={create.submit}
      onClose={onClose}
    >
      {(form) => (
        <>
          <ValidatedTextField name="name" control={form.control} label="Template name" required autoFocus />
          <TextField
            select
            label="Source"
            size="small"
            value={form.watch('source')}
            onChange={(e) => form.setValue('source', e.target.value, { shouldValidate: true })}
          >
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
        </>
      )}
    </FormDialog>
  );
}
