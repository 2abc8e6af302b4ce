// A small Feathers 5 chat/notes API in the style of Feathers' own guide (and of what its generator
// writes: TypeBox schemas, resolvers and validators per service), served over Koa's REST transport
// with the in-memory adapter. Three services:
//   users     id 'id' (a sequence), paginated; create validates {name, email, role?}; PUT replaces,
//             PATCH merges.
//   messages  id 'id', paginated, multi: ['patch', 'remove'] (PATCH and DELETE on /messages with a
//             query write every match and answer an array); createdAt is set by a hook from the
//             request's clock (Date.now(), epoch milliseconds, as the guide's messages do); read
//             defaults to false.
//   notes     id '_id', paginated; create adds slug, derived from the title; updatedAt (ISO-8601)
//             is stamped on create, PUT and PATCH; a client may choose the _id.
// Usage: node app.js PORT   (listens on 127.0.0.1; the seed below is created before it listens)
'use strict'
const { feathers } = require('@feathersjs/feathers')
const { koa, rest, bodyParser, errorHandler } = require('@feathersjs/koa')
const { MemoryService } = require('@feathersjs/memory')
const { hooks: schemaHooks, resolve, Ajv, addFormats } = require('@feathersjs/schema')
const { Type, getValidator, querySyntax, StringEnum } = require('@feathersjs/typebox')

const formats = ['date-time', 'email', 'uri']
const dataValidator = addFormats(new Ajv({}), formats)
const queryValidator = addFormats(new Ajv({ coerceTypes: true }), formats)
const paginate = { default: 10, max: 50 }

// ---- users ---------------------------------------------------------------------------------------
const userSchema = Type.Object(
  {
    id: Type.Number(),
    name: Type.String({ minLength: 1, maxLength: 60 }),
    email: Type.String({ format: 'email' }),
    role: StringEnum(['admin', 'member'])
  },
  { $id: 'User', additionalProperties: false }
)
const userDataSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 60 }),
    email: Type.String({ format: 'email' }),
    role: Type.Optional(StringEnum(['admin', 'member']))
  },
  { $id: 'UserData', additionalProperties: false }
)
const userDataValidator = getValidator(userDataSchema, dataValidator)
const userPatchSchema = Type.Partial(userDataSchema, { $id: 'UserPatch' })
const userPatchValidator = getValidator(userPatchSchema, dataValidator)
const userDataResolver = resolve({ role: async (value) => value || 'member' })

// ---- messages ------------------------------------------------------------------------------------
const messageSchema = Type.Object(
  {
    id: Type.Number(),
    text: Type.String({ minLength: 1, maxLength: 400 }),
    userId: Type.Integer({ minimum: 1 }),
    read: Type.Boolean(),
    createdAt: Type.Number()
  },
  { $id: 'Message', additionalProperties: false }
)
const messageDataSchema = Type.Object(
  {
    text: Type.String({ minLength: 1, maxLength: 400 }),
    userId: Type.Integer({ minimum: 1 }),
    read: Type.Optional(Type.Boolean())
  },
  { $id: 'MessageData', additionalProperties: false }
)
const messageDataValidator = getValidator(messageDataSchema, dataValidator)
const messagePatchSchema = Type.Partial(messageDataSchema, { $id: 'MessagePatch' })
const messagePatchValidator = getValidator(messagePatchSchema, dataValidator)
const messageQuerySchema = querySyntax(Type.Pick(messageSchema, ['id', 'text', 'userId', 'read', 'createdAt']))
const messageQueryValidator = getValidator(messageQuerySchema, queryValidator)
const messageDataResolver = resolve({
  read: async (value) => value === true,
  createdAt: async () => Date.now()
})

// ---- notes ---------------------------------------------------------------------------------------
const noteSchema = Type.Object(
  {
    _id: Type.Number(),
    title: Type.String({ minLength: 1, maxLength: 120 }),
    body: Type.String({ maxLength: 2000 }),
    tags: Type.Array(Type.String({ minLength: 1, maxLength: 30 }), { maxItems: 10 }),
    pinned: Type.Boolean(),
    slug: Type.String(),
    updatedAt: Type.String({ format: 'date-time' })
  },
  { $id: 'Note', additionalProperties: false }
)
const noteDataSchema = Type.Object(
  {
    _id: Type.Optional(Type.Integer({ minimum: 1 })),
    title: Type.String({ minLength: 1, maxLength: 120 }),
    body: Type.String({ maxLength: 2000 }),
    tags: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 30 }), { maxItems: 10 })),
    pinned: Type.Optional(Type.Boolean())
  },
  { $id: 'NoteData', additionalProperties: false }
)
const noteDataValidator = getValidator(noteDataSchema, dataValidator)
const notePatchSchema = Type.Partial(Type.Omit(noteDataSchema, ['_id']), { $id: 'NotePatch' })
const notePatchValidator = getValidator(notePatchSchema, dataValidator)
const noteQuerySchema = querySyntax(Type.Pick(noteSchema, ['_id', 'title', 'pinned', 'slug', 'updatedAt']))
const noteQueryValidator = getValidator(noteQuerySchema, queryValidator)
const slugify = (text) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
const noteDataResolver = resolve({
  tags: async (value) => value || [],
  pinned: async (value) => value === true,
  slug: async (_value, note) => slugify(note.title),
  updatedAt: async () => new Date().toISOString()
})
const notePatchResolver = resolve({ updatedAt: async () => new Date().toISOString() })

// ---- the application -----------------------------------------------------------------------------
const app = koa(feathers())
app.use(errorHandler())
app.use(bodyParser())
app.configure(rest())

app.use('users', new MemoryService({ id: 'id', startId: 1, paginate }), {
  methods: ['find', 'get', 'create', 'update', 'patch', 'remove']
})
app.use('messages', new MemoryService({ id: 'id', startId: 1, paginate, multi: ['patch', 'remove'] }), {
  methods: ['find', 'get', 'create', 'patch', 'remove']
})
app.use('notes', new MemoryService({ id: '_id', startId: 1, paginate }), {
  methods: ['find', 'get', 'create', 'update', 'patch', 'remove']
})

app.service('users').hooks({
  before: {
    create: [schemaHooks.validateData(userDataValidator), schemaHooks.resolveData(userDataResolver)],
    update: [schemaHooks.validateData(userDataValidator)],
    patch: [schemaHooks.validateData(userPatchValidator)]
  }
})
app.service('messages').hooks({
  before: {
    all: [schemaHooks.validateQuery(messageQueryValidator)],
    create: [schemaHooks.validateData(messageDataValidator), schemaHooks.resolveData(messageDataResolver)],
    patch: [schemaHooks.validateData(messagePatchValidator)]
  }
})
app.service('notes').hooks({
  before: {
    all: [schemaHooks.validateQuery(noteQueryValidator)],
    create: [schemaHooks.validateData(noteDataValidator), schemaHooks.resolveData(noteDataResolver)],
    update: [schemaHooks.validateData(noteDataValidator), schemaHooks.resolveData(noteDataResolver)],
    patch: [schemaHooks.validateData(notePatchValidator), schemaHooks.resolveData(notePatchResolver)]
  }
})

// ---- the seed: created through the services' own _create (no hooks), so every value is fixed ------
const seedClock = Date.parse('2026-01-05T10:00:00.000Z')
const minutes = (n) => seedClock + n * 60 * 1000
async function seed() {
  const users = app.service('users')
  for (const user of [
    { name: 'Ada Lovelace', email: 'ada@example.com', role: 'admin' },
    { name: 'Grace Hopper', email: 'grace@example.com', role: 'member' },
    { name: 'Alan Turing', email: 'alan@example.com', role: 'member' },
    { name: 'Edsger Dijkstra', email: 'edsger@example.com', role: 'member' },
    { name: 'Barbara Liskov', email: 'barbara@example.com', role: 'admin' },
    { name: 'Donald Knuth', email: 'donald@example.com', role: 'member' },
    { name: 'Margaret Hamilton', email: 'margaret@example.com', role: 'member' },
    { name: 'John McCarthy', email: 'john@example.com', role: 'member' },
    { name: 'Frances Allen', email: 'frances@example.com', role: 'admin' },
    { name: 'Ken Thompson', email: 'ken@example.com', role: 'member' },
    { name: 'Radia Perlman', email: 'radia@example.com', role: 'member' },
    { name: 'Tony Hoare', email: 'tony@example.com', role: 'member' }
  ]) {
    await users._create(user)
  }
  const messages = app.service('messages')
  const texts = [
    [1, 'Welcome to the chat!', true],
    [2, 'Hello everyone', true],
    [3, 'Has anyone seen the build logs?', true],
    [1, 'They are in the CI tab', true],
    [4, 'Goto considered harmful', false],
    [2, 'Debugging is twice as hard as writing code', false],
    [3, 'Can machines think?', false],
    [1, 'Meeting at noon', false],
    [4, 'Simplicity is prerequisite for reliability', false],
    [2, 'Found a moth in the relay', true],
    [3, 'Lunch anyone?', false],
    [1, 'Release notes are up', false]
  ]
  for (const [index, [userId, text, read]] of texts.entries()) {
    await messages._create({ text, userId, read, createdAt: minutes(index * 7) })
  }
  const notes = app.service('notes')
  const seedNotes = [
    ['Shopping list', 'Milk, eggs, bread', ['home'], false],
    ['Project ideas', 'A chat app in Feathers', ['work', 'ideas'], true],
    ['Reading list', 'Notes on the Analytical Engine', ['books'], false],
    ['Meeting notes', 'Agenda: release, hiring', ['work'], false],
    ['Travel plans', 'Train to Zurich in March', ['travel', 'home'], true]
  ]
  for (const [index, [title, body, tags, pinned]] of seedNotes.entries()) {
    await notes._create({
      title,
      body,
      tags,
      pinned,
      slug: slugify(title),
      updatedAt: new Date(minutes(100 + index * 30)).toISOString()
    })
  }
}

const port = Number(process.argv[2] || 3030)
seed()
  .then(() => app.listen(port, '127.0.0.1'))
  .then(() => console.log(`feathers app listening on 127.0.0.1:${port}`))
  .catch((error) => {
    console.error(error)
    process.exit(1)
  })
