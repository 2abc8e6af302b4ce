/** A book belongs to one author and has many tags (tags have many books). */
module.exports = {
  attributes: {
    title: { type: 'string', required: true, maxLength: 120 },
    year: { type: 'number', allowNull: true, min: 1000, max: 2100 },
    pages: { type: 'number', defaultsTo: 0, min: 0 },
    genre: { type: 'string', isIn: ['fiction', 'poetry', 'history', 'science', 'essay'], defaultsTo: 'fiction' },
    inPrint: { type: 'boolean', defaultsTo: true },
    author: { model: 'author' },
    tags: { collection: 'tag', via: 'books' }
  }
};
