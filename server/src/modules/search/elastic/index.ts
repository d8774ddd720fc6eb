/** Searching and indexing in an Elasticsearch/OpenSearch cluster, when ELASTICSEARCH_URL is set. */
export { ElasticForwarder } from './forwarder.js';
export { ElasticDocumentStore } from './document-store.js';
