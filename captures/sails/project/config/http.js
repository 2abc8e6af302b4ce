// The JSON API only: no cookies, no static files, no favicon.
module.exports.http = {
  middleware: {
    order: ['bodyParser', 'compress', 'router']
  }
};
