export { ModelClient, type CompleteRequest, type ModelClientDeps } from './modelClient';
export { createChatModel, type ChatModelConfig } from './createChatModel';
export { AnthropicChatModel, type AnthropicModelConfig } from './anthropic/anthropicChatModel';
export { resolveModelConfig, type ModelClientConfig, type ResolvedModelConfig, type Endpoint } from './config';
export { ModelApiError, StreamInterruptedError, ModelConfigError, type ModelErrorKind, type InterruptionReason } from './errors';
export * from './types';
export { UsageMeter, type UsageTotals, type UsageRecord } from './usageMeter';
export { lookupPrice, costOf, priceTableFromSettings, formatCost, type ModelPrice, type PriceTable } from './prices';
export {
  estimateTokens,
  estimateMessageTokens,
  estimatePromptTokens,
  resolveContextWindow,
  describeContextWindow,
  FALLBACK_CONTEXT_WINDOW,
  type ContextWindow,
  type WindowSource,
} from './contextWindows';
export { parseRetryAfter, backoffDelay, defaultRetryPolicy, type RetryPolicy } from './retryPolicy';
// Used by the hosts (VS Code, the CLI), which import the core only through folder entries.
export { lookupByModelName } from './contextWindows';
export { cancelledError } from './errors';
export { listModels } from './listModels';
export { admitRequest } from './turnUsage';
