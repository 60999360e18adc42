/**
 * Environment variables that look like credentials are not handed to commands: `echo $OPENAI_API_KEY`
 * is an allowed command, and its output goes to the model. Names only; values are never inspected.
 */
const SECRET_NAME = /(API_?KEY|ACCESS_?KEY|SECRET|TOKEN|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|PRIVATE_?KEY|_AUTH|AUTH_|SESSION_?KEY|COOKIE|WEBHOOK)/i;
const SECRET_PREFIX = /^(AWS_|AZURE_|GOOGLE_APPLICATION_CREDENTIALS|GCP_|OPENAI_|ANTHROPIC_|PATCHPILOT_API|GITHUB_TOKEN|GH_TOKEN|NPM_TOKEN|NODE_AUTH_TOKEN|SSH_AUTH_SOCK|GPG_AGENT_INFO|VAULT_|DOCKER_AUTH|KUBECONFIG)/i;

export function scrubSecretEnv(env: NodeJS.ProcessEnv): { env: NodeJS.ProcessEnv; removed: string[] } {
  const out: NodeJS.ProcessEnv = {};
  const removed: string[] = [];
  for (const [k, v] of Object.entries(env)) {
    if (SECRET_NAME.test(k) || SECRET_PREFIX.test(k)) removed.push(k);
    else out[k] = v;
  }
  return { env: out, removed };
}
