// Every model: an auto-increment integer id and createdAt/updatedAt in epoch milliseconds
// (the Sails app template's defaults). The datastore starts empty, so nothing is migrated.
module.exports.models = {
  schema: true,
  migrate: 'safe',
  attributes: {
    createdAt: { type: 'number', autoCreatedAt: true },
    updatedAt: { type: 'number', autoUpdatedAt: true },
    id: { type: 'number', autoIncrement: true }
  },
  dataEncryptionKeys: { default: 'dGhpcyBpcyBhIHRocm93YXdheSBrZXkgZm9yIGNhcGVudg==' },
  cascadeOnDestroy: true
};
