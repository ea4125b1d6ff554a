import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, sampleUser } from '../../test/helpers';
import { renderWithProviders, signIn } from '../../test/render';
import { ReadinessCard } from './ReadinessCard';
import { finding, openPortal, R, report, resetReadinessTests } from './testing';

afterEach(() => {
  vi.unstubAllGlobals();
  resetReadinessTests();
});

describe('Readiness card', () => {
  it('shows the counts per severity and links to the screen', async () => {
    signIn();
    openPortal();
    mockFetch({
      [`GET ${R}`]: () =>
        jsonResponse(
          report([
            finding(),
            finding({ id: 'b', line: 2 }),
            finding({ id: 'c', severity: 'warning' }),
            finding({ id: 'd', severity: 'info' }),
          ]),
        ),
    });
    renderWithProviders(<ReadinessCard d={1} p={2} branch="feature/x" language="en_GB" />);
    const card = await screen.findByRole('region', { name: 'Readiness' });
    const counts = await within(card).findByRole('list', { name: 'Readiness' });
    const items = within(counts)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(items).toEqual(['2Errors', '1Warning', '1Info']);
    expect(within(card).getByRole('link', { name: 'Open the Readiness screen' })).toHaveAttribute(
      'href',
      '/domain/1/portal/2/branch/feature:x/en_GB/readiness',
    );
  });

  it('is not shown without asset:r', () => {
    signIn({ ...sampleUser, admin: false });
    openPortal(['portal:r']);
    const fetch = mockFetch({});
    renderWithProviders(<ReadinessCard d={1} p={2} branch="master" language="en_GB" />);
    expect(screen.queryByRole('region', { name: 'Readiness' })).not.toBeInTheDocument();
    expect(fetch).not.toHaveBeenCalled();
  });
});
