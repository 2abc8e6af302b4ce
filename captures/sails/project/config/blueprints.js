// The REST blueprints answer every route; no shortcuts (GET /book/create?...) and no actions.
module.exports.blueprints = {
  actions: false,
  rest: true,
  shortcuts: false
};
