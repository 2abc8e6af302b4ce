/**
 * Lift the app on the port given as the first argument. Sails reads config/ for the rest;
 * the hooks a JSON API does not need (views, sessions, sockets, asset pipeline) are off.
 */
process.chdir(__dirname);
var sails = require('sails');
var port = Number(process.argv[2] || process.env.PORT || 1337);
sails.lift({
  port: port,
  explicitHost: '127.0.0.1',
  hooks: { grunt: false, views: false, session: false, sockets: false, pubsub: false, i18n: false },
  orm: { skipProductionWarnings: true },
  log: { level: 'warn' }
}, function (err) {
  if (err) { console.error(err); process.exit(1); }
});
