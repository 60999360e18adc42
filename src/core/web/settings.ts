/**
 * The user-facing settings of the network half of the policy engine. Nothing local is reachable
 * by default: an opt-in is always explicit and named. Workspace Trust filtering happens once, where
 * all settings are resolved (src/core/config/resolve.ts: these keys are trust-sensitive).
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
