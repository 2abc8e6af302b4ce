// Serve NocoDB on 127.0.0.1:PORT the way its npm package documents: an Express app with
// Noco.init mounted on it. NocoDB keeps its meta and data store in ./noco.db (SQLite) in the
// working directory when NC_DB is unset. Usage: node serve.js PORT   (env NOCODB_DIR: the npm prefix)
const path = require('path');
const modules = path.join(process.env.NOCODB_DIR, 'node_modules');
const express = require(path.join(modules, 'express'));
const { Noco } = require(path.join(modules, 'nocodb'));

(async () => {
  const port = Number(process.argv[2]);
  const app = express();
  const server = app.listen(port, '127.0.0.1');
  app.use(await Noco.init({}, server, app));
  console.log(`nocodb serving on ${port}`);
})().catch((error) => { console.error(error); process.exit(1); });
