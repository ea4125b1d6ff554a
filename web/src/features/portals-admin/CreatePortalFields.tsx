/** The source fields of Create Portal: a template (with its branch), or a git URL with its branches. */
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import type { UseFormReturn } from 'react-hook-form';
import { toApiError } from '../../api/errors';
import { portalApi, portalKeys, type Id, type Template } from '../../api/portal';
import { SelectField } from '../../ui/SelectField';
import { ValidatedTextField } from '../../ui/ValidatedTextField';
import {
  branchesLoadedFor,
  CREATE_MESSAGES,
  createUrlError,
  parseTemplateKey,
  templateKey,
  type CreateValues,
  type LoadedBranches,
} from './model';

type CreateForm = UseFormReturn<CreateValues, unknown, CreateValues>;

export function TemplateSourceFields({
  form,
  domain,
  templates,
}: {
  form: CreateForm;
  domain: Id;
  templates: Template[];
}) {
  const starters = templates.filter((t) => t.builtIn);
  const own = templates.filter((t) => !t.builtIn);
  return (
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
  );
}

export function UrlSourceFields({
  form,
  branches,
  branchError,
  loadingBranches,
  creating,
  onLoadBranches,
}: {
  form: CreateForm;
  branches: LoadedBranches | null;
  branchError: string | null;
  loadingBranches: boolean;
  creating: boolean;
  onLoadBranches: (url: string, userName: string, password: string) => void;
}) {
  const url = form.watch('url');
  const branchesLoaded = branchesLoadedFor(branches, url);
  return (
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
          onClick={() => onLoadBranches(url, form.getValues('userName'), form.getValues('password'))}
          disabled={!!createUrlError(url) || loadingBranches || creating}
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
  const { kind, value: id } = parseTemplateKey(template);
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
