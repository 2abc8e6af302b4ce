'use strict';
// The seed, written by the bootstrap into a fresh database (never through the recorded proxy).
// documentIds are fixed (24 lowercase letters/digits, the shape Strapi generates) so every fresh
// start holds the same documents; numeric ids are 1..n in the order below.
const AUTHORS = [
  { documentId: 'l44s0o2a0qpoastvjtboqbjb', name: 'Ada Lovelace', email: 'ada@example.com',
    bio: 'Writes about engines and numbers.', active: true },
  { documentId: 'o3sotxq0fw517lscsfa7xp5j', name: 'Grace Hopper', email: 'grace@example.com',
    bio: 'Compilers, COBOL and nanoseconds.', active: true },
  { documentId: 'jtu33ek4a25a4h3f5bjozxc8', name: 'Alan Turing', email: 'alan@example.com',
    bio: null, active: false },
];
const CATEGORIES = [
  { documentId: 'bzu46eougf8hpazchdzjqpla', name: 'Engineering', description: 'How things are built', position: 1 },
  { documentId: 'h7phgjry0cz333qcdbm1q6yg', name: 'History', description: 'People and events', position: 2 },
  { documentId: 'znh0gsh31jzpiiz16ozlx5l0', name: 'Announcements', description: null, position: 3 },
];
const ARTICLES = [
  { documentId: 'g1b5tshet5p84n26i59fgud3', title: 'Hello Strapi', body: 'A first article, seeded at start.',
    views: 10, featured: true, publishedOn: '2026-11-02', tags: ['intro', 'cms'],
    author: 'l44s0o2a0qpoastvjtboqbjb', categories: ['bzu46eougf8hpazchdzjqpla'] },
  { documentId: 'c5d6v8kgxzszeom3naaovznd', title: 'The first compiler', body: 'A-0 and what came after.',
    views: 42, featured: false, publishedOn: '2026-10-15', tags: ['history'],
    author: 'o3sotxq0fw517lscsfa7xp5j', categories: ['bzu46eougf8hpazchdzjqpla', 'h7phgjry0cz333qcdbm1q6yg'] },
  { documentId: 'ibydj8on68r6b6n44wi3lgmb', title: 'Breaking codes', body: 'Bletchley Park, 1940.',
    views: 7, featured: false, publishedOn: null, tags: null,
    author: 'jtu33ek4a25a4h3f5bjozxc8', categories: ['h7phgjry0cz333qcdbm1q6yg'] },
  { documentId: 'cxsgjclhown1flf3fcjjkn0c', title: 'Release notes 1.0', body: null,
    views: 0, featured: false, publishedOn: '2026-11-20', tags: ['release'],
    author: null, categories: ['znh0gsh31jzpiiz16ozlx5l0'] },
  { documentId: 'ywhz0qhymw2x1bwmfny0dn09', title: 'Analytical engine notes', body: 'Note G, annotated.',
    views: 3, featured: true, publishedOn: '2026-09-01', tags: ['history', 'math'],
    author: 'l44s0o2a0qpoastvjtboqbjb', categories: [] },
];
const GLOBAL = { documentId: 'kc7zwbj0pukzdycz2cjakms0', siteName: 'capenv blog',
  siteDescription: 'A Strapi site recorded for capenv', theme: 'light', maintenance: false, postsPerPage: 10 };

async function seed(strapi) {
  if ((await strapi.db.query('api::author.author').count()) > 0) return;   // not a fresh database
  for (const data of AUTHORS) await strapi.documents('api::author.author').create({ data });
  for (const data of CATEGORIES) await strapi.documents('api::category.category').create({ data });
  for (const data of ARTICLES) await strapi.documents('api::article.article').create({ data });
  await strapi.documents('api::global.global').create({ data: GLOBAL });
  strapi.log.info('capenv seed written');
}

module.exports = { seed };
