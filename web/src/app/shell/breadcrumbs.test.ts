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
});
