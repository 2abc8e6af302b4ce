// sails-disk keeps the records in .tmp/localDiskDb under the app folder (a fresh copy per start).
module.exports.datastores = {
  default: { adapter: 'sails-disk' }
};
