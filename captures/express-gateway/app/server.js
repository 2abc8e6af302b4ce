// Start Express Gateway 1.16.11 (its in-memory "emulate" Redis, nothing kept between starts) with the
// configuration of ./config, seeded through its own services BEFORE the admin port opens.
// Usage: node server.js ADMIN_PORT HTTP_PORT   (EG_CONFIG_DIR: this folder's config/, copied per start)
// The seed's clocks are a fixed instant (2026-01-05T10:00:00Z, TZ=UTC) and its ids are fixed, so every
// start holds the same seed whatever the day; what the admin API creates later gets real clocks and
// random ids as usual.
'use strict';
const path = require('path');
const [adminPort, httpPort] = process.argv.slice(2);
process.env.EG_ADMIN_PORT = adminPort;
process.env.EG_HTTP_PORT = httpPort;
process.env.EG_CONFIG_DIR = process.env.EG_CONFIG_DIR || path.join(__dirname, 'config');

require('express-gateway/lib/config');
const services = require('express-gateway/lib/services');
const applicationDao = require('express-gateway/lib/services/consumers/application.dao.js');

const RealDate = Date;
const SEED_INSTANT = '2026-01-05T10:00:00Z';
class SeedDate extends RealDate {
  constructor (...args) { if (args.length) super(...args); else super(SEED_INSTANT); }
  static now () { return new RealDate(SEED_INSTANT).getTime(); }
}

async function seed () {
  global.Date = SeedDate;
  try {
    await services.credential.insertScopes(['read', 'write', 'admin']);
    await services.user.insert({
      id: '0b6c2f3e-8f1a-4c55-9d2e-1a7b3c4d5e01', username: 'alice', firstname: 'Alice', lastname: 'Liddell',
      email: 'alice@capenv.test'
    });
    await services.user.insert({
      id: '0b6c2f3e-8f1a-4c55-9d2e-1a7b3c4d5e02', username: 'bob', firstname: 'Bob', lastname: 'Builder'
    });
    await services.user.insert({
      id: '0b6c2f3e-8f1a-4c55-9d2e-1a7b3c4d5e03', username: 'carol', firstname: 'Carol', lastname: 'Danvers',
      email: 'carol@capenv.test', redirectUri: 'https://carol.capenv.test/callback'
    });
    const now = new Date().toString();
    await applicationDao.insert({
      isActive: 'true', id: '7e3d9a10-2b4c-4d6e-8f01-23456789ab01', userId: '0b6c2f3e-8f1a-4c55-9d2e-1a7b3c4d5e01',
      name: 'alice-dashboard', redirectUri: 'https://dashboard.capenv.test/cb', createdAt: now, updatedAt: now
    });
    await services.credential.insertCredential('0b6c2f3e-8f1a-4c55-9d2e-1a7b3c4d5e01', 'key-auth', {
      keyId: '3kTMd1v0AliceKeyId0001', keySecret: '5nQpW7r2AliceSecret0001', scopes: ['read']
    });
  } finally {
    global.Date = RealDate;
  }
}

seed().then(() => require('express-gateway')().load(process.env.EG_CONFIG_DIR).run())
  .catch(err => { console.error('seed failed:', err); process.exit(1); });
