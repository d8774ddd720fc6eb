import type { ElasticConfig } from '../../../config.js';
import { AppError } from '../../../platform/errors.js';
import type { IndexedDocument, SearchDocumentStore } from '../query.js';
import { ElasticClient } from './client.js';
import { clusterIndex, indexPath } from './index-names.js';
import { clusterDocument, indexDefinition } from './mappings.js';

/** A `_bulk` request carries at most this many documents or about this many bytes. */
export const BULK_MAX_DOCS = 500;
export const BULK_MAX_BYTES = 5 * 1024 * 1024;

interface BulkAction {
  /** The action line and, for an index action, the document line, serialised. */
  lines: string[];
  bytes: number;
}

interface BulkItemResult {
  _id?: string;
  status?: number;
  error?: { type?: string; reason?: string };
}

/** The search documents in the cluster: one index per PIM search index, one document per image. */
export class ElasticDocumentStore implements SearchDocumentStore {
  private readonly client: ElasticClient;

  constructor(private readonly config: ElasticConfig) {
    this.client = new ElasticClient(config);
  }

  async upsert(index: { id: string; name: string }, docs: IndexedDocument[]): Promise<void> {
    if (docs.length === 0) return;
    await this.ensureIndex(index.name);
    const actions = docs.map((doc) => bulkAction({ index: { _id: doc.id } }, clusterDocument(doc.source)));
    await this.bulk(index.name, actions, 'indexed');
  }

  async remove(index: { id: string; name: string }, imageIds: string[]): Promise<void> {
    if (imageIds.length === 0) return;
    const actions = imageIds.map((id) => bulkAction({ delete: { _id: id } }));
    await this.bulk(index.name, actions, 'removed');
  }

  /**
   * Deletes the index and creates it empty again: one quick call however many documents it holds,
   * the space freed at once, and the mappings of this version of PIM. A delete-by-query would
   * visit every document, leave them marked deleted until segments merge, and outlast the client's
   * time limit on a large index.
   */
  async clear(index: { id: string; name: string }): Promise<void> {
    await this.client.send({ method: 'DELETE', path: indexPath(this.config, [index.name]), accept: [404] });
    await this.create(index.name);
  }

  private async ensureIndex(name: string): Promise<void> {
    const exists = await this.client.send({ method: 'HEAD', path: indexPath(this.config, [name]), accept: [404] });
    if (exists.status === 404) await this.create(name);
  }

  /** Creates the index with our mappings; one another process created meanwhile is as good. */
  private async create(name: string): Promise<void> {
    const res = await this.client.send({ method: 'PUT', path: indexPath(this.config, [name]), json: indexDefinition(), accept: [400] });
    const type = (res.body as { error?: { type?: string } } | null)?.error?.type;
    if (res.status === 400 && type !== 'resource_already_exists_exception') {
      const reason = (res.body as { error?: { reason?: string } } | null)?.error?.reason ?? 'HTTP 400';
      throw new AppError(502, 'search_index_refused', `The search cluster at ${this.config.host} refused to create the index ${clusterIndex(this.config, name)}: ${reason}`);
    }
  }

  /**
   * Sends the actions in batches; an item that failed fails the call with the count and the first
   * reason. For a removal, 404 (the document, or the whole index, is not there) is what it wants.
   */
  private async bulk(name: string, actions: BulkAction[], done: 'indexed' | 'removed'): Promise<void> {
    const removal = done === 'removed';
    for (const batch of batches(actions)) {
      const path = `${indexPath(this.config, [name])}/_bulk`;
      const res = await this.client.send({ method: 'POST', path, ndjson: batch.flatMap((action) => action.lines), accept: removal ? [404] : [] });
      if (res.status === 404) return;
      const items = ((res.body as { items?: Record<string, BulkItemResult>[] } | null)?.items ?? []).map((item) => Object.values(item)[0] ?? {});
      const failed = items.filter((item) => item.error !== undefined && !(removal && item.status === 404));
      if (failed.length > 0) {
        const first = failed[0]!;
        throw new AppError(
          502,
          'search_indexing_failed',
          `${failed.length} of ${batch.length} documents could not be ${done} in the search index ${clusterIndex(this.config, name)} at ${this.config.host}; the first, ${first._id}: ${first.error?.reason ?? first.error?.type ?? `status ${first.status}`}`,
        );
      }
    }
  }
}

function bulkAction(action: unknown, doc?: unknown): BulkAction {
  const lines = doc === undefined ? [JSON.stringify(action)] : [JSON.stringify(action), JSON.stringify(doc)];
  return { lines, bytes: lines.reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 0) };
}

/** Runs of actions within BULK_MAX_DOCS and BULK_MAX_BYTES; a document larger than that goes alone. */
function* batches(actions: BulkAction[]): Generator<BulkAction[]> {
  let batch: BulkAction[] = [];
  let bytes = 0;
  for (const action of actions) {
    if (batch.length > 0 && (batch.length >= BULK_MAX_DOCS || bytes + action.bytes > BULK_MAX_BYTES)) {
      yield batch;
      batch = [];
      bytes = 0;
    }
    batch.push(action);
    bytes += action.bytes;
  }
  if (batch.length > 0) yield batch;
}
