// Entry of the bundled language server (out/server.js): `node out/server.js --stdio | --node-ipc | --socket=N`.

import { startServer } from './server.ts';

startServer(process.argv.slice(2));
