/**
 * Permission names (spec 1 §6). Short codes have the form resource:letter and
 * expand to resource_<action>; a bare name is used as is. Names are compared
 * in lower case. Admins hold every permission.
 */

const ACTIONS: Record<string, string> = {
  c: 'create',
  r: 'read',
  w: 'write',
  d: 'delete',
  t: 'deactivate',
  a: 'approve',
  l: 'link',
  u: 'user_create',
  k: 'user_delete',
  ac: 'activate',
};

/** 'asset:r' → 'asset_read'; 'domain_user_create' stays as it is. */
export function expandPermission(permission: string): string {
  const name = permission.trim().toLowerCase();
  const match = /^([a-z0-9_]+):([a-z]+)$/.exec(name);
  if (!match) return name;
  const action = ACTIONS[match[2]];
  return action ? `${match[1]}_${action}` : name;
}

export interface PermissionHolder {
  isAdmin: boolean;
  /** Permissions of the current domain, in any case, short or long form. */
  permissions: readonly string[];
}

export function hasPermission(holder: PermissionHolder, required: string | readonly string[] | undefined): boolean {
  if (required === undefined) return true;
  if (holder.isAdmin) return true;
  const held = new Set(holder.permissions.map(expandPermission));
  const list = typeof required === 'string' ? [required] : required;
  return list.every((permission) => held.has(expandPermission(permission)));
}
