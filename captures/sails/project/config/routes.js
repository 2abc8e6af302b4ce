module.exports.routes = {};
