/**
 * The pure rules of the Domains and Users screens: the words of the delete-domain dialog,
 * members joined with their groups, who may add members or change roles, the choices of the
 * add-member dialog, and the bodies the user forms send.
 */
import type { DomainMember, DomainMemberInfo } from '../../api/domain';
import type { Domain, User } from '../../api/types';
import type { NewUser, UserUpdate } from '../../api/user';
import { fullName } from '../../core/sessionStore';
import type { UserFormValues } from './validation';

// ---------------------------------------------------------------------------
// Domains

export const DELETE_DOMAIN_TEXT = {
  title: 'Delete Domain',
  intro: (name: string) => `Delete the domain ${name}? This cannot be undone. It deletes:`,
  portals: (n: number) =>
    n === 1
      ? 'Its portal, with its repository, branches and every workspace:'
      : `Its ${n} portals, with their repositories, branches and every workspace:`,
  noPortals: 'No portals: the domain has none.',
  members: (n: number) =>
    n === 0
      ? 'No members.'
      : `Its ${n} ${n === 1 ? 'member loses' : 'members lose'} access to the domain (their accounts stay):`,
  groups: (n: number) => (n === 0 ? 'No permission groups.' : `Its ${n} permission ${n === 1 ? 'group' : 'groups'}:`),
  portalsFailed: 'Could not list the portals of the domain',
} as const;

/** A member of a domain with the names of its permission groups. */
export interface MemberRow extends DomainMember {
  groups: string[];
}

type PersonNames = Pick<DomainMember, 'firstName' | 'middleName' | 'lastName'>;

/** A member's or candidate's full name ('' when it has none). */
export const personName = (m: PersonNames): string =>
  fullName({ firstName: m.firstName ?? '', middleName: m.middleName ?? '', lastName: m.lastName ?? '' });

/** The members with their groups (GET domain/users joined with GET domain/usersInfo). */
export function memberRows(members: readonly DomainMember[], info: readonly DomainMemberInfo[]): MemberRow[] {
  const groupsOf = new Map(info.map((i) => [String(i.userId), (i.accountGroups ?? []).map((g) => g.groupName)]));
  return members.map((m) => ({ ...m, groups: groupsOf.get(String(m.id)) ?? [] }));
}

/** A member as the delete-domain dialog lists it: 'Ada Lovelace (ada)', or the user name alone. */
export function memberLabel(m: DomainMember): string {
  const name = personName(m);
  return name ? `${name} (${m.userName})` : m.userName;
}

/** A candidate as the add-member dialog offers it: 'ada (Ada Lovelace)', or the user name alone. */
export function candidateLabel(u: DomainMember): string {
  const name = personName(u);
  return name ? `${u.userName} (${name})` : u.userName;
}

/** Names sorted for a list ('Alpha', 'beta', 'Gamma'). */
export const sortedNames = (names: readonly string[]): string[] => [...names].sort((a, b) => a.localeCompare(b));

/** The users who may be added: the candidates that are not members yet. */
export function candidatesOf(users: readonly DomainMember[], members: readonly MemberRow[]): DomainMember[] {
  const memberIds = new Set(members.map((m) => String(m.id)));
  return users.filter((u) => !memberIds.has(String(u.id)));
}

/** The groups a member can still be added to. */
export const assignableGroups = (groups: readonly string[], member: MemberRow): string[] =>
  groups.filter((g) => !member.groups.includes(g));

/**
 * Who may add members: admins, and holders of domain_user_create in the domain that is
 * selected (their permission is of that domain).
 */
export function canAddMembers(opts: {
  isAdmin: boolean;
  selectedDomainId: Domain['id'] | undefined;
  domainId: Domain['id'];
  mayCreateMembers: boolean;
}): boolean {
  return opts.isAdmin || (String(opts.selectedDomainId) === String(opts.domainId) && opts.mayCreateMembers);
}

/** The server refuses a non-admin changing their own roles (403 OWN_ROLES): not offered. */
export const rolesLocked = (isAdmin: boolean, myId: User['id'] | undefined, member: Pick<MemberRow, 'id'>): boolean =>
  !isAdmin && myId !== undefined && String(member.id) === String(myId);

/** The success message of adding a member ('ada added to Sales (Editors).'). */
export function memberAddedMessage(
  candidates: readonly DomainMember[],
  target: { userId: string; group: string },
  domainName: string,
): string {
  const user = candidates.find((u) => String(u.id) === target.userId);
  return `${user?.userName ?? 'User'} added to ${domainName}${target.group ? ` (${target.group})` : ''}.`;
}

// ---------------------------------------------------------------------------
// Users

/** The user of the URL (any id; -1 or 0 for none). */
export const selectedUser = (users: readonly User[] | undefined, userId: string): User | null =>
  users?.find((u) => String(u.id) === userId) ?? null;

/** What the details side says without a user. */
export const noUserText = (userId: string): string =>
  userId === '-1' || userId === '0' ? 'Select a user to see the details.' : 'No such user.';

/** The edit form's values of a user. */
export const userFormOf = (user: User): UserFormValues => ({
  firstName: user.firstName ?? '',
  middleName: user.middleName ?? '',
  lastName: user.lastName ?? '',
  email: user.email ?? '',
  admin: !!user.admin,
});

/** The body of a user update: the form's values trimmed, the user's notification choice kept. */
export const userUpdateOf = (user: User, values: UserFormValues): UserUpdate => ({
  id: user.id,
  firstName: values.firstName.trim(),
  middleName: values.middleName.trim(),
  lastName: values.lastName.trim(),
  email: values.email.trim(),
  admin: values.admin,
  optOutNotification: user.optOutNotification,
});

/** The body of Create User: user name and e-mail trimmed. */
export const newUserOf = (values: NewUser): NewUser => ({
  ...values,
  userName: values.userName.trim(),
  email: values.email.trim(),
});

/** The success message of Force Reset Password. */
export const forceResetMessage = (user: Pick<User, 'email'>): string =>
  user.email
    ? `Password reset. A new one-time password was e-mailed to ${user.email}.`
    : 'Password reset. A new one-time password was put in the mail outbox.';
