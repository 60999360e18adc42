// Hosts that are this machine or a private network, in every spelling the address checks must see
// through (dotted, short, octal, hex, decimal, IPv6 and mapped forms, cloud metadata, carrier-grade
// NAT, unique-local, and names that are local by their suffix). Consumers: URL-mode elicitation
// (test/unit/mcp/elicitationUrl.test.ts) and the hosts a remote server's OAuth metadata names
// (test/unit/mcp/oauthMetadataHosts.test.ts).
export const LOCAL_HOSTS = [
  '127.0.0.1',
  '127.1',
  '0',
  '017700000001',
  '0x7f.1',
  '2130706433',
  '[::1]',
  '[::ffff:127.0.0.1]',
  '169.254.169.254',
  '10.0.0.1',
  '192.168.1.1',
  '172.16.0.1',
  '100.64.0.1',
  '[fc00::1]',
  'localhost',
  'router.lan',
  'admin.internal',
  'printer.local',
];
