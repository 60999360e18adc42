/**
 * The user-facing settings of the network half of the policy engine. Nothing local is reachable
 * by default: an opt-in is always explicit, named, and never comes from an untrusted workspace.
 */

export interface NetworkPolicySettings {
  /**
   * `patchpilot.policy.fetchAllowHosts`: host names (`localhost`, `dev.test`), IP literals or CIDR
   * ranges (`127.0.0.1`, `10.1.0.0/16`) the user opts in although they are local or private.
   * Cloud metadata addresses stay blocked whatever this says.
   */
  fetchAllowHosts: readonly string[];
  /** `patchpilot.policy.allowPrivateNetwork`: every non-public address allowed (metadata excepted). */
  allowPrivateNetwork: boolean;
}

export const DEFAULT_NETWORK_SETTINGS: NetworkPolicySettings = Object.freeze({
  fetchAllowHosts: Object.freeze([]) as readonly string[],
  allowPrivateNetwork: false,
});

export interface NetworkSettingsSources {
  /** Values from user (global) settings: always honoured. */
  user?: Partial<NetworkPolicySettings>;
  /** Values from the workspace (`.vscode/settings.json`): a repository can set them, so only honoured when trusted. */
  workspace?: Partial<NetworkPolicySettings>;
  trusted: boolean;
}

/** Merges user and workspace values; workspace values are dropped for an untrusted workspace (A10). */
export function resolveNetworkSettings(sources: NetworkSettingsSources): NetworkPolicySettings {
  const layers = [sources.user, sources.trusted ? sources.workspace : undefined];
  const hosts: string[] = [];
  let allowPrivateNetwork = false;
  for (const layer of layers) {
    if (!layer) continue;
    if (Array.isArray(layer.fetchAllowHosts)) {
      for (const h of layer.fetchAllowHosts) if (typeof h === 'string' && h.trim()) hosts.push(h.trim());
    }
    if (typeof layer.allowPrivateNetwork === 'boolean') allowPrivateNetwork = layer.allowPrivateNetwork;
  }
  return { fetchAllowHosts: hosts, allowPrivateNetwork };
}
