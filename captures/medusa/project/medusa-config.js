// Medusa 2.x for the capenv recording: the server alone on loopback, no admin dashboard, no Redis
// (in-memory event bus, cache, workflow engine and locking, Medusa's defaults without a redisUrl),
// fixed throwaway secrets. start.sh sets DATABASE_URL to its private PostgreSQL cluster.
const { defineConfig } = require("@medusajs/framework/utils")

const origins = "http://127.0.0.1"

module.exports = defineConfig({
  projectConfig: {
    databaseUrl: process.env.DATABASE_URL,
    databaseLogging: false,
    http: {
      storeCors: origins,
      adminCors: origins,
      authCors: origins,
      jwtSecret: "capenv-medusa-throwaway-jwt-secret",
      cookieSecret: "capenv-medusa-throwaway-cookie-secret",
    },
  },
  admin: { disable: true },
})
