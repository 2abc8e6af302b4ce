// Payload 2.32.3 on Express, listening on 127.0.0.1:PORT (argv[2]). On its first start it makes the
// admin user with a fixed throwaway password and API key (nothing else is seeded here: seed.py
// writes the rest through the REST API).
const express = require('express')
const payload = require('payload')

const port = Number(process.argv[2])
const app = express()

async function makeAdmin() {
  const found = await payload.find({ collection: 'users', limit: 1, depth: 0 })
  if (found.totalDocs > 0) return
  await payload.create({
    collection: 'users',
    data: {
      email: 'admin@capenv.test', password: 'capenv-payload-throwaway', name: 'Admin',
      enableAPIKey: true, apiKey: process.env.CAPENV_API_KEY,
    },
  })
}

async function main() {
  await payload.init({ secret: process.env.PAYLOAD_SECRET, express: app, loggerOptions: { level: 'warn' } })
  await makeAdmin()
  app.listen(port, '127.0.0.1', () => console.log(`payload listening on ${port}`))
}

main().catch((error) => { console.error(error); process.exit(1) })
