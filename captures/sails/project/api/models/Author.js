/** An author writes many books (the `author` of a book). */
module.exports = {
  attributes: {
    name: { type: 'string', required: true, maxLength: 80 },
    country: { type: 'string', allowNull: true },
    born: { type: 'number', allowNull: true, min: 1000, max: 2100 },
    books: { collection: 'book', via: 'author' }
  }
};
