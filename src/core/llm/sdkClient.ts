/**
 * Builds the `openai` SDK client for one endpoint. The SDK's own retries are off (maxRetries: 0):
 * this package has exactly one retry layer. Its timeout only bounds the wait for response headers;
 * stalls inside a stream are caught by our idle timer.
 */
import type OpenAI from 'openai';
import { lazyChunk } from '../base/lazyChunks';
import type { Endpoint, ResolvedModelConfig } from './config';
import { keepingErrorBodies } from './errorBodies';
import { acceptingJsonReplies } from './jsonReply';

/** The SDK refuses to start without a key; keyless local servers get this and no auth header. */
const NO_KEY_PLACEHOLDER = 'no-key';

export function createSdkClient(endpoint: Endpoint, config: ResolvedModelConfig): OpenAI {
  const headers: Record<string, string | null> = {};
  if (!endpoint.apiKey) {
    // null removes the header the SDK would build from the placeholder key: a keyless server sees
    // no credentials at all rather than a fake "Bearer no-key".
    headers['Authorization'] = null;
  } else if (config.apiKeyHeader === 'api-key') {
    headers['Authorization'] = null;
    headers['api-key'] = endpoint.apiKey;
  }
  Object.assign(headers, config.headers);
  const { OpenAI: Client } = lazyChunk.openai();
  return new Client({
    baseURL: endpoint.baseUrl,
    apiKey: endpoint.apiKey ?? NO_KEY_PLACEHOLDER,
    // Explicit nulls so OPENAI_ORG_ID / OPENAI_PROJECT_ID from the environment never leak to other providers.
    organization: null,
    project: null,
    maxRetries: 0,
    timeout: config.firstChunkTimeoutMs + 5_000,
    defaultHeaders: headers,
    defaultQuery: config.apiVersion ? { 'api-version': config.apiVersion } : undefined,
    logLevel: 'off',
    fetch: acceptingJsonReplies(keepingErrorBodies(config.fetch)),
  });
}
