import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { toApiError } from '../../api/errors';
import { useLookup } from '../../api/lookup';
import { portalApi, type Category, type Id, type Portal, type Template } from '../../api/portal';
import { overlay } from '../../core/overlayStore';
import { FormDialog } from '../../ui/FormDialog';
import { optionsOf, SelectField } from '../../ui/SelectField';
import { ActionFailure, useAction } from '../../ui/useAction';
import { ValidatedTextField } from '../../ui/ValidatedTextField';
import { TemplateSourceFields, UrlSourceFields } from './CreatePortalFields';
import {
  branchesLoadedFor,
  CREATE_MESSAGES,
  createDefaults,
  createFailureTitle,
  createSchema,
  newPortalOf,
  parseTemplateKey,
  type CreateSource,
  type CreateValues,
  type LoadedBranches,
} from './model';

interface Props {
  open: boolean;
  domain: Id;
  templates: Template[];
  portals: Portal[];
  categories: Category[];
  /** Preselected source and portal (the Clone row action). */
  initialSource?: CreateSource;
  initialCloneId?: number;
  onCreated: (portal: Portal) => void;
  onClose: () => void;
}

/** Create Portal: from a template, from a git URL (after loading its branches), or a clone. */
export function CreatePortalDialog({
  open,
  domain,
  templates,
  portals,
  categories,
  initialSource = 'template',
  initialCloneId,
  onCreated,
  onClose,
}: Props) {
  // The branches of the git URL, loaded before a portal is created from it.
  const [branches, setBranches] = useState<LoadedBranches | null>(null);
  const [branchError, setBranchError] = useState<string | null>(null);
  const types = useLookup('PortalType');
  const scopes = useLookup('ScopeType');

  const create = useAction({
    action: async (values: CreateValues): Promise<Portal> => {
      const portal = newPortalOf(values);
      overlay.show({ message: 'Creating the portal' });
      try {
        if (values.source === 'template') {
          const { kind, value } = parseTemplateKey(values.template);
          return await portalApi.createFromTemplate(
            domain,
            { ...portal, branch: values.templateBranch || undefined },
            kind === 'starter' ? { starter: value } : { templateId: Number(value) },
          );
        }
        if (values.source === 'url') {
          return await portalApi.createFromUrl(
            domain,
            { ...portal, url: values.url.trim() },
            values.userName || undefined,
            values.password || undefined,
          );
        }
        return await portalApi.clone(domain, Number(values.cloneId), portal);
      } finally {
        overlay.hide();
      }
    },
    success: CREATE_MESSAGES.created,
    failure: ({ source }) => createFailureTitle(source),
    onSuccess: (created) => onCreated(created),
  });

  const branchesOf = useAction({
    action: (target: { url: string; userName: string; password: string }) =>
      portalApi.remoteBranches(domain, target.url, target.userName || undefined, target.password || undefined),
    failure: ({ url }) => CREATE_MESSAGES.loadBranchesFailed(url),
    onSuccess: (result, { url }) => setBranches({ url, names: result.allReferences ?? [] }),
  });

  async function loadBranches(url: string, userName: string, password: string) {
    const target = url.trim();
    setBranchError(null);
    setBranches(null);
    try {
      await branchesOf.submit({ url: target, userName, password });
    } catch (failure) {
      if (failure instanceof ActionFailure)
        setBranchError(`${CREATE_MESSAGES.loadBranchesFailed(target)}: ${toApiError(failure.error).errorMessage}`);
    }
  }

  return (
    <FormDialog
      open={open}
      title="Create Portal"
      schema={createSchema}
      defaultValues={createDefaults(templates, initialSource, initialCloneId)}
      submitLabel="Create"
      // From a git URL, Create waits for the branches of that URL.
      submitDisabled={(form) => form.watch('source') === 'url' && !branchesLoadedFor(branches, form.watch('url'))}
      onSubmit={create.submit}
      onClose={() => {
        setBranches(null);
        setBranchError(null);
        onClose();
      }}
    >
      {(form) => {
        const source = form.watch('source');
        const field = (name: 'type' | 'scope' | 'categoryId' | 'template' | 'cloneId') => ({
          value: form.watch(name),
          onChange: (e: { target: { value: string } }) =>
            form.setValue(name, e.target.value, { shouldValidate: true, shouldDirty: true }),
        });
        const selectField = (name: 'type' | 'scope') => ({
          value: form.watch(name),
          onChange: (value: string) =>
            form.setValue(name, value as CreateValues[typeof name], { shouldValidate: true, shouldDirty: true }),
        });
        return (
          <>
            <RadioGroup
              row
              aria-label="Source"
              value={source}
              onChange={(e) => form.setValue('source', e.target.value as CreateSource, { shouldValidate: true })}
            >
              <FormControlLabel
                value="template"
                control={<Radio />}
                label="From Template"
                disabled={templates.length === 0}
              />
              <FormControlLabel value="url" control={<Radio />} label="From Git URL" />
              <FormControlLabel value="clone" control={<Radio />} label="Clone" disabled={portals.length === 0} />
            </RadioGroup>

            {source === 'template' && <TemplateSourceFields form={form} domain={domain} templates={templates} />}

            {source === 'url' && (
              <UrlSourceFields
                form={form}
                branches={branches}
                branchError={branchError}
                loadingBranches={branchesOf.pending}
                creating={create.pending}
                onLoadBranches={(url, userName, password) => void loadBranches(url, userName, password)}
              />
            )}

            {source === 'clone' && (
              <TextField
                select
                label="Portal to clone"
                size="small"
                {...field('cloneId')}
                helperText="All branches and history are copied."
              >
                {portals.map((p) => (
                  <MenuItem key={p.id} value={String(p.id)}>
                    {p.name}
                  </MenuItem>
                ))}
              </TextField>
            )}

            <ValidatedTextField name="name" control={form.control} label="Portal name" required />
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <SelectField label="Type" {...selectField('type')} options={optionsOf(types)} />
              <SelectField label="Scope" {...selectField('scope')} options={optionsOf(scopes)} />
            </Stack>
            <TextField
              select
              label="Category"
              size="small"
              slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
              {...field('categoryId')}
            >
              <MenuItem value="">
                <em>No category</em>
              </MenuItem>
              {categories.map((c) => (
                <MenuItem key={c.id} value={String(c.id)}>
                  {c.name}
                </MenuItem>
              ))}
            </TextField>
          </>
        );
      }}
    </FormDialog>
  );
}
