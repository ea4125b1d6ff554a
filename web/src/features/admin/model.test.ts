import { describe, expect, it } from 'vitest';
import type { DomainMember } from '../../api/domain';
import type { User } from '../../api/types';
import {
  assignableGroups,
  canAddMembers,
  candidateLabel,
  candidatesOf,
  DELETE_DOMAIN_TEXT,
  forceResetMessage,
  memberAddedMessage,
  memberLabel,
  memberRows,
  newUserOf,
  noUserText,
  personName,
  rolesLocked,
  selectedUser,
  sortedNames,
  userFormOf,
  userUpdateOf,
  type MemberRow,
} from './model';

const ada: DomainMember = { id: 7, userName: 'ada', firstName: 'Ada', middleName: null, lastName: 'Lovelace' };
const bob: DomainMember = { id: '8', userName: 'bob', firstName: null, lastName: null };
const row = (m: DomainMember, groups: string[] = []): MemberRow => ({ ...m, groups });

describe('domain members', () => {
  it('joins members with their groups by user id, whatever the id type', () => {
    const rows = memberRows(
      [ada, bob],
      [
        { userId: '7', accountGroups: [{ groupName: 'Editors' }, { groupName: 'Viewers' }] },
        { userId: 99, accountGroups: [{ groupName: 'Other' }] },
      ],
    );
    expect(rows).toEqual([
      { ...ada, groups: ['Editors', 'Viewers'] },
      { ...bob, groups: [] },
    ]);
  });

  it('names people with and without names', () => {
    expect(personName(ada)).toBe('Ada Lovelace');
    expect(personName({ firstName: 'Grace', middleName: 'B', lastName: 'Hopper' })).toBe('Grace B Hopper');
    expect(personName(bob)).toBe('');
    expect(memberLabel(ada)).toBe('Ada Lovelace (ada)');
    expect(memberLabel(bob)).toBe('bob');
    expect(candidateLabel(ada)).toBe('ada (Ada Lovelace)');
    expect(candidateLabel(bob)).toBe('bob');
  });

  it('offers only users who are not members, and only groups a member lacks', () => {
    const carol: DomainMember = { id: 9, userName: 'carol' };
    expect(candidatesOf([ada, bob, carol], [row({ ...ada, id: '7' }), row(bob)])).toEqual([carol]);
    expect(assignableGroups(['Editors', 'Viewers', 'Admins'], row(ada, ['Viewers']))).toEqual(['Editors', 'Admins']);
  });

  it('lets admins, and domain_user_create holders in the selected domain, add members', () => {
    const base = { isAdmin: false, selectedDomainId: 4, domainId: '4', mayCreateMembers: true };
    expect(canAddMembers(base)).toBe(true);
    expect(canAddMembers({ ...base, selectedDomainId: 5 })).toBe(false);
    expect(canAddMembers({ ...base, selectedDomainId: undefined })).toBe(false);
    expect(canAddMembers({ ...base, mayCreateMembers: false })).toBe(false);
    expect(canAddMembers({ ...base, isAdmin: true, selectedDomainId: 5, mayCreateMembers: false })).toBe(true);
  });

  it('locks a non-admin out of their own roles only', () => {
    expect(rolesLocked(false, 7, { id: '7' })).toBe(true);
    expect(rolesLocked(false, 7, { id: 8 })).toBe(false);
    expect(rolesLocked(true, 7, { id: 7 })).toBe(false);
    expect(rolesLocked(false, undefined, { id: 7 })).toBe(false);
  });

  it('says who was added, with the group when one was chosen', () => {
    expect(memberAddedMessage([ada], { userId: '7', group: 'Editors' }, 'Sales')).toBe('ada added to Sales (Editors).');
    expect(memberAddedMessage([ada], { userId: '7', group: '' }, 'Sales')).toBe('ada added to Sales.');
    expect(memberAddedMessage([], { userId: '3', group: '' }, 'Sales')).toBe('User added to Sales.');
  });

  it('words what deleting a domain deletes', () => {
    expect(sortedNames(['beta', 'Gamma', 'Alpha'])).toEqual(['Alpha', 'beta', 'Gamma']);
    expect(DELETE_DOMAIN_TEXT.portals(1)).toBe('Its portal, with its repository, branches and every workspace:');
    expect(DELETE_DOMAIN_TEXT.portals(3)).toBe('Its 3 portals, with their repositories, branches and every workspace:');
    expect(DELETE_DOMAIN_TEXT.members(0)).toBe('No members.');
    expect(DELETE_DOMAIN_TEXT.members(1)).toBe('Its 1 member loses access to the domain (their accounts stay):');
    expect(DELETE_DOMAIN_TEXT.members(2)).toBe('Its 2 members lose access to the domain (their accounts stay):');
    expect(DELETE_DOMAIN_TEXT.groups(0)).toBe('No permission groups.');
    expect(DELETE_DOMAIN_TEXT.groups(1)).toBe('Its 1 permission group:');
    expect(DELETE_DOMAIN_TEXT.groups(4)).toBe('Its 4 permission groups:');
  });
});

const grace: User = {
  id: 3,
  userName: 'grace',
  firstName: 'Grace',
  middleName: null,
  lastName: 'Hopper',
  email: 'grace@example.com',
  admin: true,
  optOutNotification: true,
};

describe('users', () => {
  it('finds the user of the URL and says why none is shown', () => {
    expect(selectedUser([grace], '3')).toBe(grace);
    expect(selectedUser([grace], '4')).toBeNull();
    expect(selectedUser(undefined, '3')).toBeNull();
    expect(noUserText('-1')).toBe('Select a user to see the details.');
    expect(noUserText('0')).toBe('Select a user to see the details.');
    expect(noUserText('42')).toBe('No such user.');
  });

  it('fills the form from a user and sends it back trimmed, keeping the notification choice', () => {
    const values = userFormOf(grace);
    expect(values).toEqual({
      firstName: 'Grace',
      middleName: '',
      lastName: 'Hopper',
      email: 'grace@example.com',
      admin: true,
    });
    expect(userUpdateOf(grace, { ...values, firstName: ' Grace ', email: ' g@example.com ', admin: false })).toEqual({
      id: 3,
      firstName: 'Grace',
      middleName: '',
      lastName: 'Hopper',
      email: 'g@example.com',
      admin: false,
      optOutNotification: true,
    });
  });

  it('trims the user name and e-mail of a new user', () => {
    expect(
      newUserOf({
        userName: ' dave ',
        firstName: 'Dave',
        middleName: '',
        lastName: 'Jones',
        email: ' dave@example.com ',
        admin: false,
      }),
    ).toEqual({
      userName: 'dave',
      firstName: 'Dave',
      middleName: '',
      lastName: 'Jones',
      email: 'dave@example.com',
      admin: false,
    });
  });

  it('says where the new one-time password went', () => {
    expect(forceResetMessage(grace)).toBe('Password reset. A new one-time password was e-mailed to grace@example.com.');
    expect(forceResetMessage({ email: '' })).toBe(
      'Password reset. A new one-time password was put in the mail outbox.',
    );
  });
});
