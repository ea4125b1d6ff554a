import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import { toApiError } from '../../api/errors';
import {
  portalApi,
  type Category,
  type Id,
  type NewPortal,
  type Portal,
  type PortalScope,
  type PortalType,
  type Template,
} from '../../api/portal';
import { overlay } from '../../app/overlay/overlayStore';
import { toasts } from '../../app/toasts/toastService';
import { firstError, gitUrl, MESSAGES, portalName, required } from '../../lib/validation';
import { failureToast, SCOPE_LABELS, TYPE_LABELS } from './shared';

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

/** Create Portal: from a template, from a git URL (after loading its branches), or a clone. */
export function CreatePortalDialog(props: Props) {
  const [busy, setBusy] = useState(false);
  return (
    <Dialog open={props.open} onClose={() => !busy && props.onClose()} fullWidth maxWidth="sm">
      {props.open && <CreatePortalForm {...props} busy={busy} setBusy={setBusy} />}
    </Dialog>
  );
}

const templateKey = (t: Template) => (t.builtIn && t.starter ? `starter:${t.starter}` : `template:${t.id}`);

function CreatePortalForm({
  domain,
  templates,
  portals,
  categories,
  initialSource = 'template',
  initialCloneId,
  onCreated,
  onClose,
  busy,
  setBusy,
}: Props & { busy: boolean; setBusy: (busy: boolean) => void }) {
  // Without templates (none, or no template_read to list them) the dialog starts on the git URL.
  const [source, setSource] = useState<CreateSource>(
    initialSource === 'template' && templates.length === 0 ? 'url' : initialSource,
  );
  const [name, setName] = useState('');
  const [type, setType] = useState<PortalType>('CREW');
  const [scope, setScope] = useState<PortalScope>('FULL');
  const [categoryId, setCategoryId] = useState<string>('');
  const [template, setTemplate] = useState(templates[0] ? templateKey(templates[0]) : '');
  const [cloneId, setCloneId] = useState(initialCloneId !== undefined ? String(initialCloneId) : '');
  const [url, setUrl] = useState('');
  const [userName, setUserName] = useState('');
  const [password, setPassword] = useState('');
  const [branches, setBranches] = useState<string[] | null>(null);
  const [branchesFor, setBranchesFor] = useState('');
  const [loadingBranches, setLoadingBranches] = useState(false);
  const [branchError, setBranchError] = useState<string | null>(null);
  const [touched, setTouched] = useState<Record<string, boolean>>({});

  const nameError = firstError(name, required, portalName);
  const urlError = url.trim() === '' ? MESSAGES.fieldRequired : gitUrl(url.trim());
  const branchesLoaded = branches !== null && branchesFor === url.trim();
  const sourceReady =
    source === 'template' ? template !== '' : source === 'clone' ? cloneId !== '' : !urlError && branchesLoaded;
  const valid = !nameError && sourceReady;
  const touch = (field: string) => setTouched((t) => ({ ...t, [field]: true }));

  async function loadBranches() {
    const target = url.trim();
    setLoadingBranches(true);
    setBranchError(null);
    setBranches(null);
    try {
      const result = await portalApi.remoteBranches(domain, target, userName || undefined, password || undefined);
      setBranches(result.allReferences ?? []);
      setBranchesFor(target);
    } catch (error) {
      setBranchError(`${CREATE_MESSAGES.loadBranchesFailed(target)}: ${toApiError(error).errorMessage}`);
    } finally {
      setLoadingBranches(false);
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTouched({ name: true, url: true });
    if (!valid || busy) return;
    const portal: NewPortal = {
      name: name.trim(),
      type,
      scope,
      categoryId: categoryId === '' ? null : Number(categoryId),
    };
    setBusy(true);
    overlay.show({ message: 'Creating the portal' });
    try {
      let created: Portal;
      if (source === 'template') {
        const [kind, value] = template.split(/:(.*)/s);
        created = await portalApi.createFromTemplate(
          domain,
          portal,
          kind === 'starter' ? { starter: value } : { templateId: Number(value) },
        );
      } else if (source === 'url') {
        created = await portalApi.createFromUrl(
          domain,
          { ...portal, url: url.trim() },
          userName || undefined,
          password || undefined,
        );
      } else {
        created = await portalApi.clone(domain, Number(cloneId), portal);
      }
      toasts.success(CREATE_MESSAGES.created, 'SUCCESS');
      onCreated(created);
    } catch (error) {
      failureToast(
        source === 'clone'
          ? CREATE_MESSAGES.cloneFailed
          : source === 'url'
            ? CREATE_MESSAGES.remoteFailed
            : CREATE_MESSAGES.templateFailed,
        error,
      );
    } finally {
      overlay.hide();
      setBusy(false);
    }
  }

  const starters = templates.filter((t) => t.builtIn);
  const own = templates.filter((t) => !t.builtIn);

  return (
    <form noValidate onSubmit={(e) => void submit(e)}>
      <DialogTitle>Create Portal</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <RadioGroup
            row
            aria-label="Source"
            value={source}
            onChange={(e) => setSource(e.target.value as CreateSource)}
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
            <TextField
              select
              label="Template"
              size="small"
              value={template}
              onChange={(e) => setTemplate(e.target.value)}
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
          )}

          {source === 'url' && (
            <>
              <TextField
                label="Git URL"
                required
                size="small"
                value={url}
                placeholder="https://git.example.com/team/portal.git"
                onChange={(e) => {
                  setUrl(e.target.value);
                  touch('url');
                }}
                onBlur={() => touch('url')}
                error={!!touched.url && !!urlError}
                helperText={(touched.url && urlError) || ' '}
              />
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                <TextField
                  label="User name"
                  size="small"
                  value={userName}
                  autoComplete="off"
                  onChange={(e) => setUserName(e.target.value)}
                  fullWidth
                />
                <TextField
                  label="Password"
                  type="password"
                  size="small"
                  value={password}
                  autoComplete="new-password"
                  onChange={(e) => setPassword(e.target.value)}
                  fullWidth
                />
              </Stack>
              <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
                <Button
                  variant="outlined"
                  onClick={() => void loadBranches()}
                  disabled={!!urlError || loadingBranches || busy}
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
                    {branches.length === 0
                      ? 'The repository has no branches.'
                      : `Branches (${String(branches.length)}) — every branch is imported:`}
                  </Typography>
                  <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
                    {branches.map((b) => (
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
              value={cloneId}
              onChange={(e) => setCloneId(e.target.value)}
              helperText="All branches and history are copied."
            >
              {portals.map((p) => (
                <MenuItem key={p.id} value={String(p.id)}>
                  {p.name}
                </MenuItem>
              ))}
            </TextField>
          )}

          <TextField
            label="Portal name"
            required
            size="small"
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              touch('name');
            }}
            onBlur={() => touch('name')}
            error={!!touched.name && !!nameError}
            helperText={(touched.name && nameError) || ' '}
          />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextField
              select
              label="Type"
              size="small"
              value={type}
              onChange={(e) => setType(e.target.value as PortalType)}
              fullWidth
            >
              {(Object.keys(TYPE_LABELS) as PortalType[]).map((t) => (
                <MenuItem key={t} value={t}>
                  {TYPE_LABELS[t]}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              select
              label="Scope"
              size="small"
              value={scope}
              onChange={(e) => setScope(e.target.value as PortalScope)}
              fullWidth
            >
              {(Object.keys(SCOPE_LABELS) as PortalScope[]).map((s) => (
                <MenuItem key={s} value={s}>
                  {SCOPE_LABELS[s]}
                </MenuItem>
              ))}
            </TextField>
          </Stack>
          <TextField
            select
            label="Category"
            size="small"
            slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
            value={categoryId}
            onChange={(e) => setCategoryId(e.target.value)}
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
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button type="submit" variant="contained" disabled={!valid || busy}>
          Create
        </Button>
      </DialogActions>
    </form>
  );
}
