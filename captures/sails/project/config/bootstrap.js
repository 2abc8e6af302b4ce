/**
 * The seed, written before the port opens (Sails lifts the HTTP server after the bootstrap),
 * so it is never recorded. Its clocks are fixed (2026-01-05 onward), not the day of the start,
 * so a start on any day answers the same seed.
 */
var T0 = Date.UTC(2026, 0, 5, 9, 0, 0);
var HOUR = 3600 * 1000;

var AUTHORS = [
  { name: 'Ursula K. Le Guin', country: 'US', born: 1929 },
  { name: 'Italo Calvino', country: 'IT', born: 1923 },
  { name: 'Wisława Szymborska', country: 'PL', born: 1923 },
  { name: 'Primo Levi', country: 'IT', born: 1919 }
];
var TAGS = ['classic', 'translated', 'short', 'favourite', 'to-read'];
// [title, year, pages, genre, inPrint, author index, tag indexes]
var BOOKS = [
  ['The Left Hand of Darkness', 1969, 304, 'fiction', true, 0, [0, 3]],
  ['The Dispossessed', 1974, 387, 'fiction', true, 0, [0]],
  ['A Wizard of Earthsea', 1968, 183, 'fiction', true, 0, [0, 2]],
  ['Invisible Cities', 1972, 165, 'fiction', true, 1, [1, 2, 3]],
  ['If on a Winter\'s Night a Traveler', 1979, 260, 'fiction', false, 1, [1]],
  ['Six Memos for the Next Millennium', 1988, 124, 'essay', true, 1, [1]],
  ['View with a Grain of Sand', 1995, 214, 'poetry', true, 2, [1, 4]],
  ['The Periodic Table', 1975, 233, 'science', true, 3, [0, 1, 3]],
  ['If This Is a Man', 1947, 179, 'history', true, 3, [1]],
  ['The Wrench', 1978, 171, 'fiction', false, 3, [4]]
];

module.exports.bootstrap = async function () {
  var clock = T0;
  function stamp(rec) {
    clock += HOUR;
    rec.createdAt = clock;
    rec.updatedAt = clock;
    return rec;
  }
  var authors = [];
  for (var a of AUTHORS) { authors.push(await sails.models.author.create(stamp(Object.assign({}, a))).fetch()); }
  var tags = [];
  for (var t of TAGS) { tags.push(await sails.models.tag.create(stamp({ label: t })).fetch()); }
  for (var b of BOOKS) {
    await sails.models.book.create(stamp({
      title: b[0], year: b[1], pages: b[2], genre: b[3], inPrint: b[4],
      author: authors[b[5]].id,
      tags: b[6].map(function (i) { return tags[i].id; })
    }));
  }
};
