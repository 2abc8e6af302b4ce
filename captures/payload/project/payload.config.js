// Payload 2.32.3 project for captures/payload: four collections and one global over PostgreSQL,
// the REST API only (no admin panel, no GraphQL, no telemetry). Every read and write needs a user
// (Payload's default access): a JWT from /api/users/login or the admin's fixed API key.
const { buildConfig } = require('payload/config')
const { postgresAdapter } = require('@payloadcms/db-postgres')
const { slateEditor } = require('@payloadcms/richtext-slate')

const signedIn = ({ req: { user } }) => Boolean(user)

module.exports = buildConfig({
  admin: { disable: true },
  graphQL: { disable: true },
  telemetry: false,
  // Mail goes nowhere (Payload's default mock handler asks api.nodemailer.com for an account).
  email: { fromName: 'capenv', fromAddress: 'noreply@capenv.test', transportOptions: { jsonTransport: true } },
  // The scenario and the live probes send a few hundred calls in minutes: no rate limit.
  rateLimit: { max: 1000000, window: 60000 },
  editor: slateEditor({}),
  db: postgresAdapter({ pool: { connectionString: process.env.DATABASE_URI } }),
  collections: [
    {
      slug: 'users',
      auth: { useAPIKey: true, tokenExpiration: 86400 },
      admin: { useAsTitle: 'email' },
      fields: [{ name: 'name', type: 'text' }],
    },
    {
      slug: 'authors',
      access: { read: signedIn, create: signedIn, update: signedIn, delete: signedIn },
      fields: [
        { name: 'name', type: 'text', required: true },
        { name: 'email', type: 'email', unique: true },
        { name: 'bio', type: 'textarea' },
      ],
    },
    {
      slug: 'tags',
      access: { read: signedIn, create: signedIn, update: signedIn, delete: signedIn },
      fields: [
        { name: 'name', type: 'text', required: true, unique: true },
        { name: 'color', type: 'text', maxLength: 16 },
      ],
    },
    {
      slug: 'posts',
      access: { read: signedIn, create: signedIn, update: signedIn, delete: signedIn },
      fields: [
        { name: 'title', type: 'text', required: true, maxLength: 120 },
        { name: 'slug', type: 'text', unique: true, index: true },
        {
          name: 'status', type: 'select', defaultValue: 'draft', required: true,
          options: [{ label: 'Draft', value: 'draft' }, { label: 'Published', value: 'published' }],
        },
        { name: 'views', type: 'number', min: 0, defaultValue: 0 },
        { name: 'tags', type: 'relationship', relationTo: 'tags', hasMany: true },
        { name: 'author', type: 'relationship', relationTo: 'authors' },
      ],
    },
  ],
  globals: [
    {
      slug: 'settings',
      access: { read: signedIn, update: signedIn },
      fields: [
        { name: 'siteName', type: 'text', required: true, defaultValue: 'capenv blog' },
        { name: 'postsPerPage', type: 'number', min: 1, max: 100, defaultValue: 10 },
        { name: 'maintenance', type: 'checkbox', defaultValue: false },
      ],
    },
  ],
})
