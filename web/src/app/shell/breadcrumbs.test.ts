import { describe, expect, it } from 'vitest';
import { breadcrumbTrail } from './breadcrumbs';

describe('breadcrumbTrail', () => {
  it("is rooted at 'Domain' by default", () => {
    expect(breadcrumbTrail('/domain/3/template-management')).toEqual({
      root: 'Domain',
      segments: ['Template Management'],
    });
    expect(breadcrumbTrail('/')).toEqual({ root: 'Domain', segments: [] });
  });

  it("is rooted at 'Portal' when the URL contains portal", () => {
    expect(breadcrumbTrail('/domain/1/portal/2/branch/feature:summer/en_GB/dashboard')).toEqual({
      root: 'Portal',
      segments: ['feature/summer', 'en_GB', 'Dashboard'],
    });
  });

  it("is rooted at 'Admin' when the URL contains admin, without repeating it", () => {
    expect(breadcrumbTrail('/admin/users/2')).toEqual({ root: 'Admin', segments: ['Users'] });
    expect(breadcrumbTrail('/admin/domains/-1')).toEqual({ root: 'Admin', segments: ['Domains'] });
  });

  it('decodes segments', () => {
    expect(breadcrumbTrail('/domain/1/portal/2/branch/r%C3%A9sum%C3%A9/fr_FR/settings').segments).toEqual([
      'résumé',
      'fr_FR',
      'Settings',
    ]);
  });

  it('names the selected domain and portal instead of their ids', () => {
    const names = { domain: { id: 1, name: 'Demo Airline' }, portal: { id: '2', name: 'Crew Portal' } };
    expect(breadcrumbTrail('/domain/1/portal/2/branch/master/en_GB/dashboard', names)).toEqual({
      root: 'Portal',
      segments: ['Demo Airline', 'Crew Portal', 'master', 'en_GB', 'Dashboard'],
    });
    // Another id than the selection's: left out, as before.
    expect(breadcrumbTrail('/domain/7/dashboard', names).segments).toEqual(['Dashboard']);
    // Admin paths are not domain paths.
    expect(breadcrumbTrail('/admin/domains/1', names).segments).toEqual(['Domains']);
  });
});
