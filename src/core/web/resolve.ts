/**
 * Name resolution for the fetcher. The resolver is injectable (tests, DNS rebinding drills);
 * every address it returns is checked, and the one we connect to is chosen here, once.
 */
import { promises as dns } from 'node:dns';
import type { PolicyDecision } from '../policy/types';
import { parseIp } from './ipParse';
import type { NetworkPolicySettings } from './settings';
import { checkAddress } from './urlCheck';
import { errorMessage } from '../base';

export interface ResolvedAddress {
  address: string;
  family: number;
}

export type Resolver = (host: string) => Promise<readonly ResolvedAddress[]>;

/** The system resolver, in the order the system returns (no IPv4-first reordering). */
export const systemResolver: Resolver = (host) => dns.lookup(host, { all: true, verbatim: true });

export type ResolveOutcome =
  { kind: 'ok'; address: string; family: 4 | 6; checked: readonly string[] } | { kind: 'refused'; decision: PolicyDecision } | { kind: 'error'; error: string };

/** Resolves once and checks EVERY answer: one blocked address in a mixed answer refuses the host. */
export async function resolveChecked(host: string, resolver: Resolver, settings: NetworkPolicySettings): Promise<ResolveOutcome> {
  let answers: readonly ResolvedAddress[];
  try {
    answers = await resolver(host);
  } catch (e) {
    return { kind: 'error', error: `Could not resolve "${host}": ${errorMessage(e)}` };
  }
  if (!Array.isArray(answers) || answers.length === 0) return { kind: 'error', error: `"${host}" resolved to no address.` };
  const parsed: { address: string; family: 4 | 6 }[] = [];
  for (const a of answers) {
    const ip = typeof a?.address === 'string' ? parseIp(a.address) : undefined;
    if (!ip || ip.zone !== undefined) {
      return {
        kind: 'refused',
        decision: { verdict: 'deny', rule: 'deny:dns-bad-answer', reason: `"${host}" resolved to something that is not an IP address.` },
      };
    }
    const decision = checkAddress(ip.bytes, host, settings);
    if (decision.verdict !== 'allow') {
      return { kind: 'refused', decision: { ...decision, reason: `"${host}" resolves to ${a.address}: ${decision.reason}` } };
    }
    parsed.push({ address: a.address, family: ip.family });
  }
  const first = parsed[0]!;
  return { kind: 'ok', address: first.address, family: first.family, checked: parsed.map((p) => p.address) };
}
