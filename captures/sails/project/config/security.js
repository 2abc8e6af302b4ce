module.exports.security = { csrf: false, cors: { allRoutes: false } };
