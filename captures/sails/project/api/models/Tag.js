/** A tag labels many books; a book has many tags. */
module.exports = {
  attributes: {
    label: { type: 'string', required: true, maxLength: 40 },
    books: { collection: 'book', via: 'tags' }
  }
};
