export { ModelClient, type CompleteRequest, type ModelClientDeps } from './modelClient';
export { createChatModel, type ChatModelConfig } from './createChatModel';
export { AnthropicChatModel, type AnthropicModelConfig } from './anthropic/anthropicChatModel';
export { resolveModelConfig, type ModelClientConfig, type ResolvedModelConfig, type Endpoint } from './config';
export {
  ModelApiError,
  StreamInterruptedError,
  ModelConfigError,
  type ModelErrorKind,
  type InterruptionReason,
} from './errors';
export * from './types';
export { UsageMeter, type UsageTotals, type UsageRecord } from './usageMeter';
export { defaultPrices, lookupPrice, costOf, priceTableFromSettings, formatCost, type ModelPrice, type PriceTable } from './prices';
export {
  estimateTokens,
  estimateMessageTokens,
  estimatePromptTokens,
  contextWindowFor,
  defaultContextWindows,
  FALLBACK_CONTEXT_WINDOW,
  type ContextWindow,
} from './contextWindows';
export { parseRetryAfter, backoffDelay, defaultRetryPolicy, type RetryPolicy } from './retryPolicy';
