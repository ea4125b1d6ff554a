import { render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { sampleUser } from '../test/helpers';
import { initialSelectionState, setDomainPermissions, useSelectionStore } from '../core/selectionStore';
import { useSessionStore } from '../core/sessionStore';
import { PermissionView, Restricted } from './Restricted';
import { NO_PERMISSION_MESSAGE } from '../core/usePermission';

beforeEach(() => {
  useSessionStore.setState({ status: 'loggedIn', user: { ...sampleUser } });
  useSelectionStore.setState({ ...initialSelectionState });
});

describe('restricted elements', () => {
  it('are hidden unless every listed permission is held', () => {
    setDomainPermissions(1, [], ['DOMAIN_USER_CREATE', 'page_read']);
    render(
      <>
        <Restricted permission="domain:u">
          <span>one</span>
        </Restricted>
        <Restricted permission={['domain_user_create', 'page:r']}>
          <span>two</span>
        </Restricted>
        <Restricted permission={['domain_user_create', 'page:w']}>
          <span>three</span>
        </Restricted>
      </>,
    );
    expect(screen.getByText('one')).toBeInTheDocument();
    expect(screen.getByText('two')).toBeInTheDocument();
    expect(screen.queryByText('three')).not.toBeInTheDocument();
  });

  it('are shown to admins', () => {
    useSessionStore.setState({ user: { ...sampleUser, admin: true } });
    render(<Restricted permission="anything:w">shown</Restricted>);
    expect(screen.getByText('shown')).toBeInTheDocument();
  });

  it('a view without its permission says so', () => {
    render(<PermissionView permission="domain_user_create">secret</PermissionView>);
    expect(screen.getByRole('alert')).toHaveTextContent(NO_PERMISSION_MESSAGE);
    expect(NO_PERMISSION_MESSAGE).toBe(
      'You do not have the right permission to access to this section. Please contact your Administrator',
    );
    expect(screen.queryByText('secret')).not.toBeInTheDocument();
  });
});
