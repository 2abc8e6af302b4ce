module.exports.policies = { '*': true };
