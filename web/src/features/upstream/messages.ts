import type { UpstreamState } from '../../api/upstream';

/** The label of a branch the git host deleted and the portal keeps (issue 24). */
export const DELETED_ON_HOST = 'deleted on the git host';

/** Texts of a portal's upstream git host (issue 15 item 1). */
export const UPSTREAM_MESSAGES = {
  cardTitle: 'Upstream git host',
  url: 'URL',
  state: 'State',
  lastSync: 'Last sync',
  never: 'Never',
  syncNow: 'Sync now',
  synced: 'The portal is in sync with its git host.',
  syncFailed: 'Could not sync with the git host',
  credentials: 'Credentials',
  noCredentials: 'None (anonymous access)',
  passwordKind: 'User name and password or token',
  sshKind: 'SSH deploy key',
  replaceCredentials: 'Replace credentials',
  userName: 'User name',
  password: 'Password or access token',
  credentialsSaved: 'The credentials were replaced.',
  credentialsFailed: 'Could not replace the credentials',
  generateKey: 'Generate deploy key',
  regenerateKey: 'Generate a new deploy key',
  generateKeyTitle: 'Generate a deploy key?',
  generateKeyMessage:
    'The server makes a new SSH key for this portal and keeps its private half sealed. Add the public half to the repository on the git host as a deploy key with write access. A key generated before stops working here.',
  keyGenerated: 'A new deploy key was generated: add its public half to the git host.',
  keyFailed: 'Could not generate the deploy key',
  publicKey: 'Public key (add it to the git host as a deploy key with write access)',
  copy: 'Copy',
  copied: 'Copied to the clipboard',
  copyFailed: 'Failed to copy to the clipboard',
  noSecretsKey:
    'The server has no secrets key, so credentials cannot be stored. An administrator must configure one (--secrets-key-file).',
  webhook: 'Push webhook',
  webhookHint:
    "Point the git host's push webhook at this URL with this secret (content type application/json), so commits pushed there reach authors at once.",
  showWebhook: 'Show webhook URL and secret',
  webhookUrl: 'Webhook URL',
  webhookSecret: 'Secret',
  rotateWebhook: 'New secret',
  rotateTitle: 'Replace the webhook secret?',
  rotateMessage: 'The current secret stops working at once: enter the new one in the git host.',
  rotated: 'The webhook secret was replaced.',
  rotateFailed: 'Could not replace the webhook secret',
  webhookFailed: 'Could not load the webhook',
  branchAhead: (branch: string, n: number) => `${branch}: ${n} commit${n === 1 ? '' : 's'} not on the git host`,
  branchBehind: (branch: string, n: number) =>
    `${branch}: ${n} commit${n === 1 ? '' : 's'} of the git host not in the portal`,
  branchDeletedOnHost: (branch: string) =>
    `${branch}: ${DELETED_ON_HOST} (kept in the portal while someone has unpushed work on it; not sent back there)`,
} as const;

/** The state chip's label and colour. */
export const STATE_LABELS: Record<UpstreamState, { label: string; color: 'success' | 'warning' | 'info' | 'error' }> = {
  IN_SYNC: { label: 'In sync', color: 'success' },
  AHEAD: { label: 'Ahead', color: 'warning' },
  BEHIND: { label: 'Behind', color: 'info' },
  DIVERGED: { label: 'Diverged', color: 'error' },
  ERROR: { label: 'Error', color: 'error' },
};
