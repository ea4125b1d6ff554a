import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { z } from 'zod';
import { toApiError } from '../../api/errors';
import {
  portalApi,
  portalKeys,
  type Category,
  type Id,
  type NewPortal,
  type Portal,
  type PortalScope,
  type PortalType,
  type Template,
} from '../../api/portal';
import { overlay } from '../../app/overlay/overlayStore';
import { gitUrl, MESSAGES, portalName } from '../../lib/validation';
import { FormDialog } from '../../ui/FormDialog';
import { requiredField } from '../../ui/schemas';
import { useAction } from '../../ui/useAction';
import { ValidatedTextField } from '../../ui/ValidatedTextField';
import { useLookup } from '../../api/lookup';
import { optionsOf, SelectField } from '../../ui/SelectField';

export type CreateSource = 'template' | 'url' | 'clone';

export const CREATE_MESSAGES = {
  created: 'Portal created successfully',
  cloneFailed: 'Failed to clone portal',
  remoteFailed: 'Failed to create portal from remote',
  templateFailed: 'Failed to create portal from template',
  loadBranchesFailed: (url: string) => `Failed to load branches from URL ${url}`,
  loadBranchesFirst: 'Load the branches of the repository first.',
} as const;

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

const templateKey = (t: Template) => (t.builtIn && t.starter ? `starter:${t.starter}` : `template:${t.id}`);

interface CreateValues {
  source: CreateSource;
  name: string;
  type: PortalType;
  scope: PortalScope;
  categoryId: string;
  template: string;
  /** The template's branch the portal opens on; '' for the template's default. */
  templateBranch: string;
  cloneId: string;
  url: string;
  userName: string;
  password: string;
}

const nameField = requiredField(portalName);
const urlError = (url: string) => (url.trim() === '' ? MESSAGES.fieldRequired : gitUrl(url.trim()));

/** The form's rules: the name always (lib/validation, with its length), the chosen source's fields. */
const createSchema = z
  .object({
    source: z.enum(['template', 'url', 'clone']),
    name: nameField,
    type: z.enum(['CREW', 'PASSENGER']),
    scope: z.enum(['FULL', 'MICROSITE', 'CAPTIVE']),
    categoryId: z.string(),
    template: z.string(),
    templateBranch: z.string(),
    cloneId: z.string(),
    url: z.string(),
    userName: z.string(),
    password: z.string(),
  })
  .superRefine((v, ctx) => {
    if (v.source === 'template' && v.template === '') ctx.addIssue({ code: 'custom', path: ['template'], message: '' });
    if (v.source === 'clone' && v.cloneId === '') ctx.addIssue({ code: 'custom', path: ['cloneId'], message: '' });
    const bad = v.source === 'url' ? urlError(v.url) : null;
    if (bad) ctx.addIssue({ code: 'custom', path: ['url'], message: bad });
  });

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
  const [branches, setBranches] = useState<{ url: string; names: string[] } | null>(null);
  const [loadingBranches, setLoadingBranches] = useState(false);
  const [branchError, setBranchError] = useState<string | null>(null);
  const types = useLookup('PortalType');
  const scopes = useLookup('ScopeType');

  const create = useAction({
    action: async (values: CreateValues): Promise<Portal> => {
      const portal: NewPortal = {
        name: values.name.trim(),
        type: values.type,
        scope: values.scope,
        categoryId: values.categoryId === '' ? null : Number(values.categoryId),
      };
      overlay.show({ message: 'Creating the portal' });
      try {
        if (values.source === 'template') {
          const [kind, value] = values.template.split(/:(.*)/s);
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
    // The spec's title of the source that failed (spec 3 §4).
    failure: ({ source }) =>
      source === 'clone'
        ? CREATE_MESSAGES.cloneFailed
        : source === 'url'
          ? CREATE_MESSAGES.remoteFailed
          : CREATE_MESSAGES.templateFailed,
    onSuccess: (created) => onCreated(created),
  });

  async function loadBranches(url: string, userName: string, password: string) {
    const target = url.trim();
    setLoadingBranches(true);
    setBranchError(null);
    setBranches(null);
    try {
      const result = await portalApi.remoteBranches(domain, target, userName || undefined, password || undefined);
      setBranches({ url: target, names: result.allReferences ?? [] });
    } catch (error) {
      setBranchError(`${CREATE_MESSAGES.loadBranchesFailed(target)}: ${toApiError(error).errorMessage}`);
    } finally {
      setLoadingBranches(false);
    }
  }

  const starters = templates.filter((t) => t.builtIn);
  const own = templates.filter((t) => !t.builtIn);
  // Without templates (none, or no template_read to list them) the dialog starts on the git URL.
  const defaults: CreateValues = {
    source: initialSource === 'template' && templates.length === 0 ? 'url' : initialSource,
    name: '',
    type: 'CREW',
    scope: 'FULL',
    categoryId: '',
    template: templates[0] ? templateKey(templates[0]) : '',
    templateBranch: '',
    cloneId: initialCloneId !== undefined ? String(initialCloneId) : '',
    url: '',
    userName: '',
    password: '',
  };

  return (
    <FormDialog
      open={open}
      title="Create Portal"
      schema={createSchema}
      defaultValues={defaults}
      submitLabel="Create"
      // From a git URL, Create waits for the branches of that URL.
      submitDisabled={(form) =>
        form.watch('source') === 'url' && (branches === null || branches.url !== form.watch('url').trim())
      }
      onSubmit={create.submit}
      onClose={() => {
        setBranches(null);
        setBranchError(null);
        onClose();
      }}
    >
      {(form) => {
        const source = form.watch('source');
        const url = form.watch('url');
        const branchesLoaded = branches !== null && branches.url === url.trim();
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

            {source === 'template' && (
              <>
                <TextField
                  select
                  label="Template"
                  size="small"
                  value={form.watch('template')}
                  onChange={(e) => {
                    form.setValue('template', e.target.value, { shouldValidate: true, shouldDirty: true });
                    form.setValue('templateBranch', '');
                  }}
                  helperText={templates.length === 0 ? 'No templates available.' : ' '}
                >
                  {starters.length > 0 && <MenuItem disabled>Built-in starters</MenuItem>}
                  {starters.map((t) => (
                    <MenuItem key={templateKey(t)} value={templateKey(t)}>
                      {t.templateName || t.name}
                    </MenuItem>
                  ))}
                  {own.length > 0 && <MenuItem disabled>Templates of this domain</MenuItem>}
                  {own.map((t) => (
                    <MenuItem key={templateKey(t)} value={templateKey(t)}>
                      {t.templateName || t.name}
                    </MenuItem>
                  ))}
                </TextField>
                <TemplateBranchField
                  domain={domain}
                  template={form.watch('template')}
                  value={form.watch('templateBranch')}
                  onChange={(branch) => form.setValue('templateBranch', branch)}
                />
              </>
            )}

            {source === 'url' && (
              <>
                <ValidatedTextField
                  name="url"
                  control={form.control}
                  label="Git URL"
                  required
                  placeholder="https://git.example.com/team/portal.git"
                />
                <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                  <ValidatedTextField name="userName" control={form.control} label="User name" autoComplete="off" />
                  <ValidatedTextField
                    name="password"
                    control={form.control}
                    label="Password"
                    type="password"
                    autoComplete="new-password"
                  />
                </Stack>
                <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
                  <Button
                    variant="outlined"
                    onClick={() => void loadBranches(url, form.getValues('userName'), form.getValues('password'))}
                    disabled={!!urlError(url) || loadingBranches || create.pending}
                  >
                    {loadingBranches ? 'Loading branches…' : 'Load branches'}
                  </Button>
                  {!branchesLoaded && !branchError && !loadingBranches && (
                    <Typography variant="body2" color="text.secondary">
                      {CREATE_MESSAGES.loadBranchesFirst}
                    </Typography>
                  )}
                </Stack>
                {branchError && <Alert severity="error">{branchError}</Alert>}
                {branchesLoaded && (
                  <Stack spacing={1} aria-label="Remote branches" role="group">
                    <Typography variant="body2">
                      {branches.names.length === 0
                        ? 'The repository has no branches.'
                        : `Branches (${String(branches.names.length)}) — every branch is imported:`}
                    </Typography>
                    <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
                      {branches.names.map((b) => (
                        <Chip key={b} label={b} size="small" />
                      ))}
                    </Stack>
                  </Stack>
                )}
              </>
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

/**
 * The branch a portal made from the template opens on: the template's branches (POST
 * /portal_branch/branches/template/{domainId}/), its default first. Hidden while there is only one.
 */
function TemplateBranchField({
  domain,
  template,
  value,
  onChange,
}: {
  domain: Id;
  template: string;
  value: string;
  onChange: (branch: string) => void;
}) {
  const [kind, id] = template.split(/:(.*)/s);
  const branches = useQuery({
    queryKey: portalKeys.templateBranches(domain, template),
    queryFn: () => portalApi.templateBranches(domain, kind === 'starter' ? { starter: id } : { id: Number(id) }),
    enabled: template !== '',
    staleTime: 30_000,
  });
  if (branches.isError) return <Alert severity="error">{toApiError(branches.error).errorMessage}</Alert>;
  const names = branches.data ?? [];
  if (names.length < 2) return null;
  return (
    <SelectField
      label="Branch"
      helperText="The portal opens on this branch; every branch is copied."
      value={value}
      onChange={onChange}
      options={[{ value: '', label: "The template's default branch" }, ...names.map((b) => ({ value: b, label: b }))]}
    />
  );
}
