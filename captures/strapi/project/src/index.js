'use strict';
const { seed } = require('./seed');
// Bootstrap: give the users-permissions "public" role every REST action on the four content
// types, so the recorded API needs no token (nothing secret in the capture); then write the seed
// (src/seed.js) into a fresh database. Idempotent.
const TYPES = {
  'api::article.article': ['find', 'findOne', 'create', 'update', 'delete'],
  'api::author.author': ['find', 'findOne', 'create', 'update', 'delete'],
  'api::category.category': ['find', 'findOne', 'create', 'update', 'delete'],
  'api::global.global': ['find', 'update', 'delete'],
};

module.exports = {
  register() {},
  async bootstrap({ strapi }) {
    const role = await strapi.db
      .query('plugin::users-permissions.role')
      .findOne({ where: { type: 'public' } });
    if (!role) throw new Error('users-permissions public role not found');
    for (const [uid, actions] of Object.entries(TYPES)) {
      for (const a of actions) {
        const action = `${uid}.${a}`;
        const found = await strapi.db
          .query('plugin::users-permissions.permission')
          .findOne({ where: { action, role: role.id } });
        if (!found) {
          await strapi.db
            .query('plugin::users-permissions.permission')
            .create({ data: { action, role: role.id } });
        }
      }
    }
    await seed(strapi);
  },
};
