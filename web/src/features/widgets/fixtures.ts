/** Test data of the widgets: a sitemap four levels deep with hidden, inactive and failing pages. */
import type { SitemapPage } from '../../api/sitemap';

export const sitemap: SitemapPage = {
  id: 'master-page',
  title: 'Master Page',
  url: '/index.html',
  isMaster: true,
  children: [
    {
      id: 'home',
      title: 'Home',
      url: '/pages/home.html',
      status: 'PUBLISHED',
      parameters: [
        { name: 'airport', description: 'The ICAO code', required: true },
        { name: 'gate', description: 'Optional gate', required: false },
      ],
      children: [
        {
          id: 'news',
          title: 'News',
          children: [{ id: 'article', title: 'Article', children: [{ id: 'comments', title: 'Comments' }] }],
        },
        { id: 'secret', title: 'Secret', hidePage: true, children: [{ id: 'under-secret', title: '' }] },
      ],
    },
    { id: 'old', title: 'Old page', deactived: true },
    { id: 'broken', title: 'Broken', status: 'ERROR', errorMessage: 'The page file is missing' },
    { id: 'captcha', title: 'Captcha' },
    { id: 'oops', title: 'Oops' },
  ],
};

export const emptySitemap: SitemapPage = { id: 'master-page', title: 'Master Page', isMaster: true, children: [] };
