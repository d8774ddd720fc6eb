// The indexer's process (see indexer-process.ts): one sync of search documents on a PostgreSQL
// server, on connections of its own, then it ends. It ends too when the server does.
import { openDatabase } from '../../platform/db/database.js';
import { PgDocumentStore } from './engine/pg-store.js';
import type { IndexerReply, IndexerRequest } from './indexer-process.js';
import { SearchIndexer } from './indexer.js';

/** Resolves once the message is on its way, so an ending process does not lose it. */
function reply(message: IndexerReply): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send?.(message, undefined, {}, () => resolve())) resolve();
  });
}

async function sync({ url, imageIds, batch, sync: options }: IndexerRequest): Promise<void> {
  const database = await openDatabase({ kind: 'postgres', url }, { onConnectionError: (err) => void reply({ kind: 'failed', message: err.message }) });
  try {
    const db = database.background;
    const indexer = new SearchIndexer(db, new PgDocumentStore(db), { batch });
    const { indexed } = await indexer.syncImages(imageIds, (done, total) => reply({ kind: 'progress', done, total }), undefined, options);
    await reply({ kind: 'done', indexed });
  } finally {
    await database.close();
  }
}

process.on('message', (request: IndexerRequest) => {
  sync(request).then(
    () => process.disconnect(),
    async (err: Error) => {
      await reply({ kind: 'failed', message: err.message });
      process.disconnect();
    },
  );
});
// The server ended (or let go): so does this.
process.on('disconnect', () => process.exit(0));
