-- Seed of the capture's database (blog.db), loaded by start.sh with Python's sqlite3 module.
-- Three tables with their own integer id spaces (ids overlap on purpose: author 2, article 2 and
-- comment 2 are different entities) and one table keyed by a text slug.
PRAGMA foreign_keys = OFF;
CREATE TABLE authors (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  email TEXT,
  bio TEXT
);
CREATE TABLE articles (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  title TEXT NOT NULL,
  body TEXT,
  author_id INTEGER REFERENCES authors(id),
  status TEXT NOT NULL DEFAULT 'draft',
  views INTEGER NOT NULL DEFAULT 0,
  published_at TEXT
);
CREATE TABLE comments (
  id INTEGER PRIMARY KEY,
  article_id INTEGER NOT NULL REFERENCES articles(id),
  commenter TEXT NOT NULL,
  body TEXT NOT NULL,
  score REAL,
  approved INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE tags (
  slug TEXT PRIMARY KEY,
  label TEXT NOT NULL,
  color TEXT,
  article_count INTEGER NOT NULL DEFAULT 0
);

INSERT INTO authors (id, name, email, bio) VALUES
  (1, 'Ada Lovelace', 'ada@example.com', 'Writes about engines and numbers.'),
  (2, 'Grace Hopper', 'grace@example.com', 'Compilers, debugging and nanoseconds.'),
  (3, 'Alan Turing', 'alan@example.com', NULL);

INSERT INTO articles (id, title, body, author_id, status, views, published_at) VALUES
  (1, 'Notes on the Analytical Engine', 'The engine weaves algebraic patterns.', 1, 'published', 120, '2026-01-10T09:00:00Z'),
  (2, 'A bug in the relay', 'We found a moth in relay 70.', 2, 'published', 340, '2026-02-14T16:30:00Z'),
  (3, 'Computing machinery', 'Can machines think?', 3, 'draft', 0, NULL),
  (4, 'Nanoseconds explained', 'A nanosecond is about 30 cm of wire.', 2, 'published', 75, '2026-03-01T08:15:00Z');

INSERT INTO comments (id, article_id, commenter, body, score, approved) VALUES
  (1, 1, 'babbage', 'Splendid summary.', 4.5, 1),
  (2, 1, 'mary', 'What about the looms?', 3.0, 1),
  (3, 2, 'ada', 'A real bug!', 5.0, 1),
  (4, 4, 'alan', 'I measured 29.98 cm.', NULL, 0),
  (5, 2, 'grace', 'It is in the logbook now.', 4.0, 0);

INSERT INTO tags (slug, label, color, article_count) VALUES
  ('history', 'History', '#8a5a44', 2),
  ('hardware', 'Hardware', '#336699', 2),
  ('ai', 'Artificial intelligence', NULL, 1);
