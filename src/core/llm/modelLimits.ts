/**
 * The window and the price of each role's model, by precedence: the user's settings
 * (`patchpilot.llm.contextWindows`, `patchpilot.llm.prices`), what the endpoint says
 * (endpointInfo.ts), the catalogs shipped as packages (modelCatalog.ts, catalogPrices.ts), and for a
 * window the 8,192-token fallback. Until `resolve()` asked the endpoint, `window()` answers from the
 * settings and the catalog alone.
 */
import { catalogPrice, pricesCatalogWindow } from './catalogPrices';
import type { Endpoint, ResolvedModelConfig } from './config';
import { lookupByModelName, resolveContextWindow, type ContextWindow, type DiscoveredLimits } from './contextWindows';
import { endpointLimits, type EndpointLimits } from './endpointInfo';
import { catalogLimits } from './modelCatalog';
import { lookupPrice, type ModelPrice } from './prices';
import type { ModelRole } from './types';

/** The catalog's window of `model` served at `baseUrl`: models.dev first, then genai-prices. */
export function catalogWindow(model: string, baseUrl?: string): DiscoveredLimits | undefined {
  const limits = catalogLimits(model, baseUrl);
  if (limits)
    return {
      contextWindow: limits.contextWindow,
      ...(limits.maxOutputTokens ? { maxOutputTokens: limits.maxOutputTokens } : {}),
      from: 'the catalog',
      detail: `models.dev ${limits.entry}`,
    };
  const priced = pricesCatalogWindow(model, baseUrl);
  return priced ? { contextWindow: priced.contextWindow, from: 'the catalog', detail: `genai-prices ${priced.entry}` } : undefined;
}

/** The headers a chat request to this endpoint carries (sdkClient.ts): the probe is asked as the chat is. */
function probeHeaders(endpoint: Endpoint, config: ResolvedModelConfig): Record<string, string> {
  const headers: Record<string, string> = {};
  if (endpoint.apiKey) {
    if (config.apiKeyHeader === 'api-key') headers['api-key'] = endpoint.apiKey;
    else headers.authorization = `Bearer ${endpoint.apiKey}`;
  }
  return { ...headers, ...config.headers };
}

export class ModelLimits {
  private readonly found = new Map<ModelRole, EndpointLimits | undefined>();
  private readonly windows = new Map<ModelRole, ContextWindow>();

  constructor(private readonly config: ResolvedModelConfig) {}

  window(role: ModelRole): ContextWindow {
    const known = this.windows.get(role);
    if (known) return known;
    const { model, baseUrl } = this.config.endpoints[role];
    return resolveContextWindow(model, this.config.contextWindows, undefined, catalogWindow(model, baseUrl));
  }

  /** Asks the endpoint (cached per base URL and model), unless the user's setting already names the window. */
  async resolve(role: ModelRole, signal?: AbortSignal): Promise<ContextWindow> {
    const known = this.windows.get(role);
    if (known) return known;
    const endpoint = this.config.endpoints[role];
    const { model, baseUrl } = endpoint;
    const configured = lookupByModelName(this.config.contextWindows, model) !== undefined;
    const found = configured
      ? undefined
      : await endpointLimits({
          baseUrl,
          model,
          headers: probeHeaders(endpoint, this.config),
          query: this.config.apiVersion ? { 'api-version': this.config.apiVersion } : undefined,
          signal,
        });
    this.found.set(role, found);
    const window = resolveContextWindow(model, this.config.contextWindows, found, catalogWindow(model, baseUrl));
    this.windows.set(role, window);
    return window;
  }

  /**
   * The price of the role's model: the user's setting, else the catalog unless the endpoint is a
   * local runtime (its tokens cost nothing per token, whatever a cloud charges for the same model).
   */
  price(role: ModelRole): ModelPrice | undefined {
    const { model, baseUrl } = this.config.endpoints[role];
    const configured = lookupPrice(model, this.config.prices);
    if (configured) return configured;
    return this.found.get(role)?.local ? undefined : catalogPrice(model, baseUrl);
  }
}
