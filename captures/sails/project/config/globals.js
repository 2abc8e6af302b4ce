module.exports.globals = { _: false, async: false, models: false, sails: true };
