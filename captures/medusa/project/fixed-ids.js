// Loaded by start.sh with `node --require` while the seed runs: Medusa names every entity
// `<prefix>_<ULID>` (a millisecond clock and 80 random bits), so two fresh starts would hold the
// seed under different ids and neither the capture nor the live probes could name them. While the
// file CAPENV_FIXED_IDS_UNTIL names does not exist, ulid() answers a fixed sequence (clock
// 2026-12-01T09:00:00Z plus one millisecond a call, random bits from a generator seeded by
// CAPENV_FIXED_IDS_SEED, one per process: migrations, the admin user, the seeded server); once the
// seed has made the file, ids are Medusa's own again (the recorded scenario and the probes get fresh ones).
const fs = require("fs")
const Module = require("module")

const untilFile = process.env.CAPENV_FIXED_IDS_UNTIL
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
const START_MS = Date.parse("2026-12-01T09:00:00Z")
let calls = 0
let state = 0
for (const ch of process.env.CAPENV_FIXED_IDS_SEED || "") state = (Math.imul(state, 31) + ch.charCodeAt(0)) | 0

function nextRandom() {  // mulberry32: a small generator whose sequence depends on the seed alone
  state = (state + 0x6d2b79f5) | 0
  let t = state
  t = Math.imul(t ^ (t >>> 15), t | 1)
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

function fixedUlid() {
  let time = START_MS + calls++
  let head = ""
  for (let i = 0; i < 10; i++) { head = ALPHABET[time % 32] + head; time = Math.floor(time / 32) }
  let tail = ""
  for (let i = 0; i < 16; i++) tail += ALPHABET[Math.floor(nextRandom() * 32)]
  return head + tail
}

function fixing() { return untilFile && !fs.existsSync(untilFile) }

const load = Module._load
Module._load = function (request, parent, isMain) {
  const loaded = load.apply(this, arguments)
  if (request !== "ulid" || loaded.__capenvFixed) return loaded
  const own = loaded.ulid
  const wrapped = { ...loaded, __capenvFixed: true,
    ulid: (...args) => (fixing() ? fixedUlid() : own(...args)) }
  if (loaded.monotonicFactory) {
    wrapped.monotonicFactory = (...args) => {
      const made = loaded.monotonicFactory(...args)
      return (...more) => (fixing() ? fixedUlid() : made(...more))
    }
  }
  return wrapped
}
