import { describe, expect, it } from 'vitest';
import {
  alphanumeric,
  branchName,
  commitMessage,
  commitRule,
  commitText,
  crewUrl,
  email,
  gitUrl,
  icao,
  MESSAGES,
  name,
  noLeadingWhitespace,
  noSpaces,
  numberInRange,
  pageName,
  passwordCharacters,
  passwordLength,
  personName,
  portalName,
  required,
  runeCount,
  staticPortalName,
  url,
  username,
  type Rule,
} from './validation';

const M = MESSAGES;

// The rows of internal/validate/validate_test.go TestRules, in the same order: [name, rule,
// input, expected message ('' when valid)].
const rows: Array<[string, Rule, string, string]> = [
  ['alphanumeric ok', alphanumeric, 'Crew Team_1', ''],
  ['alphanumeric dash', alphanumeric, 'crew-team', M.alphanumeric],
  ['alphanumeric empty', alphanumeric, '', M.alphanumeric],
  ['no spaces ok', noSpaces, 'file_name.v2', ''],
  ['no spaces space', noSpaces, 'file name', M.noSpaces],
  ['icao ok', icao, 'BAW', ''],
  ['icao long ok', icao, 'ABCDE', ''],
  ['icao short', icao, 'BA', M.icao],
  ['icao lower', icao, 'baw', M.icao],
  ['portal name ok', portalName, 'Crew Portal (A320) v1.2-beta', ''],
  ['portal name leading dash', portalName, '-portal', M.portalName],
  ['portal name leading space', portalName, ' portal', M.portalName],
  ['portal name slash', portalName, 'a/b', M.portalName],
  ['portal name 100', portalName, 'p'.repeat(100), ''],
  ['portal name 101', portalName, 'p'.repeat(101), M.nameTooLong],
  ['name ok', name, 'Crew Team_1', ''],
  ['name dash', name, 'crew-team', M.alphanumeric],
  ['name 100', name, 'n'.repeat(100), ''],
  ['name 101', name, 'n'.repeat(101), M.nameTooLong],
  ['page name ok', pageName, 'Home page_1-a', ''],
  ['page name dot', pageName, 'home.html', M.pageName],
  ['page name leading dash', pageName, '-home', M.pageName],
  ['page name 101', pageName, 'h'.repeat(101), M.nameTooLong],
  ['username ok', username, 'john_doe-1', ''],
  ['username 20', username, 'abcdefghijklmnopqrst', ''],
  ['username 21', username, 'abcdefghijklmnopqrstu', M.username],
  ['username leading dash', username, '-john', M.username],
  ['username space', username, 'john doe', M.username],
  ['username empty', username, '', M.username],
  ['branch ok', branchName, 'feature/new-page_1.2', ''],
  ['branch leading dot', branchName, '.hidden', M.branchName],
  ['branch dotdot', branchName, 'a..b', M.branchName],
  ['branch double slash', branchName, 'a//b', M.branchName],
  ['branch trailing dot', branchName, 'a.', M.branchName],
  ['branch trailing slash', branchName, 'a/', M.branchName],
  ['branch slash dot', branchName, 'a/.b', M.branchName],
  ['branch lock', branchName, 'a.lock', M.branchName],
  ['branch space', branchName, 'a b', M.branchName],
  ['branch option-like', branchName, '-delete', M.branchName],
  ['branch main', branchName, 'main', ''],
  ['branch lower head', branchName, 'head', ''],
  ['branch head inside', branchName, 'feature/HEAD', ''],
  ['branch ahead', branchName, 'AHEAD', ''],
  ['branch origin-like', branchName, 'originals/x', ''],
  ['branch reserved later', branchName, 'release/origin', ''],
  ['branch HEAD', branchName, 'HEAD', M.branchName],
  ['branch FETCH_HEAD', branchName, 'FETCH_HEAD', M.branchName],
  ['branch ORIG_HEAD', branchName, 'ORIG_HEAD', M.branchName],
  ['branch MERGE_HEAD', branchName, 'MERGE_HEAD', M.branchName],
  ['branch CHERRY_PICK_HEAD', branchName, 'CHERRY_PICK_HEAD', M.branchName],
  ['branch full ref', branchName, 'refs/heads/x', M.branchName],
  ['branch refs', branchName, 'refs', M.branchName],
  ['branch remote-tracking', branchName, 'origin/master', M.branchName],
  ['branch origin', branchName, 'origin', M.branchName],
  ['branch remotes', branchName, 'remotes/origin/x', M.branchName],
  ['branch heads', branchName, 'heads/x', M.branchName],
  ['branch tags', branchName, 'tags/v1', M.branchName],
  ['branch at', branchName, '@', M.branchName],
  ['branch reflog', branchName, 'a@{1}', M.branchName],
  ['branch control', branchName, 'a\x01b', M.branchName],
  ['branch tab', branchName, 'a\tb', M.branchName],
  ['branch del', branchName, 'a\x7fb', M.branchName],
  ['branch lock component', branchName, 'a.lock/b', M.branchName],
  ['branch dot component', branchName, 'a/.b/c', M.branchName],
  ['branch tilde', branchName, 'a~1', M.branchName],
  ['branch caret', branchName, 'a^', M.branchName],
  ['branch colon', branchName, 'a:b', M.branchName],
  ['branch glob', branchName, 'a*', M.branchName],
  ['branch question', branchName, 'a?', M.branchName],
  ['branch bracket', branchName, 'a[b', M.branchName],
  ['branch backslash', branchName, 'a\\b', M.branchName],
  ['branch too long', branchName, 'a'.repeat(251), M.branchName],
  ['static name ok', staticPortalName, 'Static portal', ''],
  ['static name quote', staticPortalName, "it's", M.staticPortalName],
  ['static name backtick', staticPortalName, 'a`b', M.staticPortalName],
  ['leading ok', noLeadingWhitespace, 'value', ''],
  ['leading space', noLeadingWhitespace, ' value', M.leadingWhitespace],
  ['leading dash', noLeadingWhitespace, '-value', M.leadingWhitespace],
  ['leading angle', noLeadingWhitespace, '<script>', M.leadingWhitespace],
  ['url empty', url, '', ''],
  ['url https', url, 'https://example.com/x', ''],
  ['url ftp', url, 'ftp://example.com', M.url],
  ['url bare', url, 'example.com', M.url],
  ['url space', url, 'https://exa mple.com', M.url],
  ['crew url ok', crewUrl, 'crew.airline.aero', ''],
  ['crew url no dot', crewUrl, 'localhost', M.crewUrl],
  ['crew url space', crewUrl, 'crew airline.aero', M.crewUrl],
  ['git https', gitUrl, 'https://git.example.com/team/portal.git', ''],
  ['git ssh', gitUrl, 'ssh://git@git.example.com:2222/team/portal.git', ''],
  ['git scp', gitUrl, 'git@github.com:team/portal.git', ''],
  ['git proto', gitUrl, 'git://git.example.com/portal.git', ''],
  ['git no suffix', gitUrl, 'https://git.example.com/team/portal', M.gitUrl],
  ['git file', gitUrl, 'file:///srv/portal.git', M.gitUrl],
  ['email ok', email, 'jane.doe@example.com', ''],
  ['email no tld', email, 'jane@example', M.email],
  ['email name form', email, 'Jane <jane@example.com>', M.email],
  ['email empty', email, '', M.email],
  ['commit ok', commitMessage, 'Update home page\nand footer', ''],
  ['commit empty', commitMessage, '  ', M.commitRequired],
  ['commit punctuation', commitMessage, 'Fix: typo', M.commitFormat],
  ['commit leading space', commitMessage, ' fix', M.commitFormat],
  ['commit text conventional', commitText, 'chore(i18n): update fr', ''],
  ['commit text punctuation', commitText, "i18n: fix typo - don't use '/' or # (or .)", ''],
  ['commit text any script', commitText, 'Übersetzung: Änderungen für 日本語 ✓', ''],
  ['commit text body', commitText, 'fix: typo\n\nThe body:\n\t- one\n\t- two\n', ''],
  ['commit text crlf body', commitText, 'fix: typo\r\n\r\nBody', ''],
  ['commit text around', commitText, '\n  fix: typo  \n\n', ''],
  ['commit text 200', commitText, 'ü'.repeat(200), ''],
  ['commit text 201', commitText, 'ü'.repeat(201), M.commitText],
  ['commit text no blank line', commitText, 'fix: typo\nmore', M.commitText],
  ['commit text control', commitText, 'fix\x07typo', M.commitText],
  ['commit text bidi', commitText, 'fix \u202etypo', M.commitText],
  ['commit text body control', commitText, 'fix\n\nbody\x00', M.commitText],
  ['commit text empty', commitText, ' \n ', M.commitRequired],
  ['commit by spec', commitRule('ALPHANUMERIC').check, 'chore(i18n): update fr', M.commitFormat],
  ['commit by any text', commitRule('ANY_TEXT').check, 'chore(i18n): update fr', ''],
  ['required ok', required, 'x', ''],
  ['required blank', required, ' ', M.fieldRequired],
  ['password length ok', passwordLength, '12345', ''],
  ['password length short', passwordLength, '1234', 'Your password needs to be at least 5 characters.'],
  ['password chars control', passwordCharacters, 'abc\x00def', M.specialCharacters],
  ['password chars symbols ok', passwordCharacters, 'p@ss w0rd!', ''],
];

describe('validation rules (the cases of validate_test.go)', () => {
  it.each(rows)('%s', (_name, rule, input, expected) => {
    expect(rule(input)).toBe(expected === '' ? null : expected);
  });

  // TestPersonName
  it.each([
    ['Anne-Marie', ''],
    ["O'Neill", ''],
    ['José', ''],
    ['', ''],
    ['John3', M.specialCharacters],
    ['<b>', M.specialCharacters],
    ['a@b', M.specialCharacters],
    [' leading', M.specialCharacters],
    ['é'.repeat(100), ''],
    ['é'.repeat(101), M.nameTooLong],
  ])('person name %j', (input, expected) => {
    expect(personName(input, false)).toBe(expected === '' ? null : expected);
  });

  it('a required person name refuses the empty value', () => {
    expect(personName('', true)).toBe(M.fieldRequired);
  });

  // TestNumber
  it.each([
    ['5', ''],
    ['1', ''],
    ['10', ''],
    ['11', 'Maximum value allowed is 10'],
    ['0', 'Minimum value allowed is 1'],
    ['abc', M.number],
    ['', M.number],
    ['2.5', ''],
  ])('number %j in 1..10', (input, expected) => {
    expect(numberInRange(input, 1, 10)).toBe(expected === '' ? null : expected);
  });

  it('keeps the messages of the server word for word', () => {
    expect(M.noSpaces.endsWith(' ')).toBe(true);
    expect(M.icao.endsWith(' ')).toBe(true);
    expect(M.passwordUnchanged).toBe("The new password can't be the same as the current password");
    expect(M.passwordsDiffer).toBe("The confirm new password doesn't match the new password");
  });
});

describe('runeCount (characters as the server counts them: utf8.RuneCountInString)', () => {
  it.each([
    ['', 0],
    ['abc', 3],
    ['é', 1], // one code point (U+00E9), one UTF-16 unit
    ['e\u0301', 2], // e + combining acute: two code points, as Go counts them
    ['😀', 1], // one code point, two UTF-16 units
    ['a😀b', 3],
  ])('%j is %i', (input, expected) => {
    expect(runeCount(input)).toBe(expected);
  });

  it('counts 1000 emoji as 1000, where .length says 2000', () => {
    const reason = '😀'.repeat(1000);
    expect(reason.length).toBe(2000);
    expect(runeCount(reason)).toBe(1000);
  });
});
